import type { AppToken } from './api-types.js';
import type { Transport } from './transport.js';

/** Tokens are renewed when less than this is left, so a call never leaves with one about to expire. */
export const RENEW_BEFORE_MS = 60_000;
/** Lifetime of self-signed tokens: the service's suggested hour (at most a day is accepted). */
export const SELF_SIGNED_LIFETIME_S = 3600;

export interface Token {
  value: string;
  expiresAt: number;
}

/**
 * Keeps one token for the app: obtained on first use, renewed before expiry, and shared by concurrent
 * calls (one request in flight at a time). `forget()` drops it after the service refused it.
 */
export class TokenKeeper {
  private current: Token | undefined;
  private pending: Promise<Token> | undefined;

  constructor(
    private readonly obtain: () => Promise<Token>,
    private readonly now: () => number,
  ) {}

  async get(): Promise<string> {
    if (this.current && this.current.expiresAt - this.now() > RENEW_BEFORE_MS) return this.current.value;
    this.pending ??= this.obtain().then(
      (token) => {
        this.current = token;
        this.pending = undefined;
        return token;
      },
      (error: unknown) => {
        this.pending = undefined;
        throw error;
      },
    );
    return (await this.pending).value;
  }

  forget(): void {
    this.current = undefined;
  }
}

/** A token from POST /authentication, strategy app-secret. */
export function secretTokens(transport: Transport, appId: string, appSecret: string) {
  return async (): Promise<Token> => {
    const answer = (await transport.send({
      method: 'POST',
      path: '/authentication',
      body: { strategy: 'app-secret', appId, appSecret },
    })) as AppToken;
    return { value: answer.accessToken, expiresAt: Date.parse(answer.expiresAt) };
  };
}

/** A token the app signs itself with its ES256 key (README "Integrate in five minutes"), through WebCrypto. */
export function selfSignedTokens(appId: string, privateKeyPem: string, audience: string, now: () => number) {
  let key: Promise<CryptoKey> | undefined;
  return async (): Promise<Token> => {
    key ??= crypto.subtle.importKey('pkcs8', pemBody(privateKeyPem), { name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
    ]);
    const iat = Math.floor(now() / 1000);
    const exp = iat + SELF_SIGNED_LIFETIME_S;
    const signingInput = `${base64url(JSON.stringify({ alg: 'ES256', typ: 'JWT' }))}.${base64url(JSON.stringify({ appId, iss: appId, sub: 'AppAuth', aud: audience, iat, exp }))}`;
    // WebCrypto's ECDSA signature is r‖s (IEEE P1363), which is exactly JWS's ES256 form.
    const signature = await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      await key,
      new TextEncoder().encode(signingInput),
    );
    return { value: `${signingInput}.${base64url(new Uint8Array(signature))}`, expiresAt: exp * 1000 };
  };
}

function pemBody(pem: string): ArrayBuffer {
  const base64 = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return bytes.buffer;
}

function base64url(data: string | Uint8Array): string {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
