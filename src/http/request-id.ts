import { randomBytes } from 'node:crypto';

const WELL_FORMED = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Request ids in the shape of a UUID: 80 random bits drawn once per process, then a counter. They
 * only need to be unique (across processes and restarts, which the random part sees to), not
 * unguessable, and a fresh random UUID per request measured at about 1 us of CPU on every request.
 */
export function requestIds(): (incoming: unknown) => string {
  const random = randomBytes(10).toString('hex');
  const prefix = `${random.slice(0, 8)}-${random.slice(8, 12)}-${random.slice(12, 16)}-${random.slice(16, 20)}-`;
  let counter = 0;
  return (incoming) => {
    if (typeof incoming === 'string' && WELL_FORMED.test(incoming)) return incoming;
    counter = (counter + 1) % 0x1000000000000;
    return prefix + counter.toString(16).padStart(12, '0');
  };
}
