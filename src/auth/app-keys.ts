import { generateKeyPair } from 'node:crypto';

/** A new ECDSA P-256 key pair: the private half is handed to the operator once and never stored. */
export function generateAppKeyPair(): Promise<{ privateKeyPem: string; publicKeyPem: string }> {
  return new Promise((resolve, reject) =>
    generateKeyPair(
      'ec',
      {
        namedCurve: 'P-256',
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (error, publicKeyPem, privateKeyPem) => (error ? reject(error) : resolve({ privateKeyPem, publicKeyPem })),
    ),
  );
}
