import { createPrivateKey, sign } from 'node:crypto';

const b64 = (text: string) => Buffer.from(text).toString('base64url');

/**
 * An ES256 JWT from header and payload JSON text exactly as given: duplicate members, odd types and
 * header parameters that a JWT library would refuse to produce.
 */
export function rawEs256(headerJson: string, payloadJson: string, privateKeyPem: string): string {
  const input = `${b64(headerJson)}.${b64(payloadJson)}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: createPrivateKey(privateKeyPem),
    dsaEncoding: 'ieee-p1363',
  });
  return `${input}.${signature.toString('base64url')}`;
}
