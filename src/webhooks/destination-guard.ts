import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Which destinations a webhook may reach. Checked on the address a connection is actually made to
 * (the resolved one, at every attempt), so a name that resolves to an internal address today, or
 * changes between checks (DNS rebinding), is refused all the same.
 */

function blockList(entries: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of entries) list.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
  return list;
}

/** Cloud metadata services: refused even when private destinations are allowed. */
const METADATA = blockList([
  ['169.254.169.254', 32],
  ['169.254.170.2', 32],
  ['100.100.100.200', 32],
  ['fd00:ec2::254', 128],
]);
/** Never a destination: unspecified, multicast, reserved, broadcast. */
const NEVER = blockList([
  ['0.0.0.0', 8],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
  ['::', 128],
  ['ff00::', 8],
]);
/** Loopback, private, shared, link-local, unique-local: allowed only with WEBHOOKS_ALLOW_PRIVATE. */
const PRIVATE = blockList([
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['192.0.0.0', 24],
  ['198.18.0.0', 15],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
]);

/** `::ffff:7f00:1` and `::ffff:127.0.0.1` are IPv4 addresses: checked as such. */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (mapped) {
    if (mapped[1]) return { address: mapped[1], family: 'ipv4' };
    const high = parseInt(mapped[2]!, 16);
    const low = parseInt(mapped[3]!, 16);
    return { address: [high >> 8, high & 255, low >> 8, low & 255].join('.'), family: 'ipv4' };
  }
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Why this address may not be reached, or undefined when it may. */
export function refusedAddress(raw: string, allowPrivate: boolean): string | undefined {
  const { address, family } = normalise(raw.replace(/^\[|\]$/g, ''));
  if (METADATA.check(address, family)) return 'a cloud metadata address';
  if (NEVER.check(address, family)) return 'a reserved address';
  if (!allowPrivate && PRIVATE.check(address, family)) return 'a loopback, private or link-local address';
  return undefined;
}

export class RefusedDestinationError extends Error {
  readonly code = 'EREFUSEDDESTINATION';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request: resolves, then refuses when any address the name has is refused. */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    dnsLookup(hostname, { family: options.family ?? 0, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      for (const { address } of addresses) {
        const reason = refusedAddress(address, allowPrivate);
        if (reason)
          return callback(new RefusedDestinationError(`destination refused: ${hostname} resolves to ${reason}`), '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}
