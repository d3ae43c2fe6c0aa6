import { webcrypto } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import type { MaybePromise } from '../cache/cached-loader.js';
import type { Config } from '../config.js';
import type { AppRecord } from '../storage/records.js';
import type { AppRegistry } from './app-registry.js';

const ISSUER = 'crmkit';
const OPERATOR_AUDIENCE = 'crmkit-operator';
/** docs/decisions.md "Foundation": clock skew allowance at most 60 s; `exp - iat` at most one day with no skew added. */
export const CLOCK_SKEW_SECONDS = 60;
const MAX_SELF_SIGNED_LIFETIME_SECONDS = 86_400;
const MAX_TOKEN_LENGTH = 8192;

export type AppTokenKind = 'app-token' | 'app-iss-app-token';

export interface VerifiedAppToken {
  kind: AppTokenKind;
  app: AppRecord;
  payload: JWTPayload;
  exp: number;
}

interface CachedAppToken {
  kind: AppTokenKind;
  appId: string;
  /** secret version for issued tokens, key version for self-signed ones */
  version: number;
  payload: JWTPayload;
  exp: number;
}

export interface OperatorSession {
  operatorId: string;
  email: string;
  /** The operator's session version when it was issued (0 for sessions older than versions). */
  sessionVersion: number;
  payload: JWTPayload;
}

interface SigningKey {
  kid: string;
  /**
   * A WebCrypto key, imported once: given a KeyObject (or bytes), jose imports a CryptoKey on every
   * sign and verify, which was a tenth of a token request's CPU time.
   */
  key: Promise<webcrypto.CryptoKey>;
}

/**
 * Issues and verifies every kind of token. Verified app tokens are cached by their text until
 * expiry; each use still checks the app's current secret or key version and attachments, which
 * come from the app registry (in memory, invalidated by the change feed).
 */
export class TokenService {
  private readonly verified = new LRUCache<string, CachedAppToken>({ max: 50_000 });
  private readonly keys: SigningKey[];

  constructor(
    private readonly config: Pick<Config, 'jwtAudience' | 'appTokenTtlSeconds' | 'operatorSessionTtlSeconds'>,
    private readonly registry: AppRegistry,
    signingKeys: { kid: string; secret: string }[],
    private readonly now: () => number,
  ) {
    this.keys = signingKeys.map((k) => ({
      kid: k.kid,
      key: webcrypto.subtle.importKey(
        'raw',
        Buffer.from(k.secret, 'base64url'),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign', 'verify'],
      ),
    }));
    if (this.keys.length === 0) throw new Error('no signing key in the store: migrations did not run');
  }

  private get nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  async issueAppToken(app: AppRecord): Promise<{ token: string; payload: JWTPayload; expiresAt: number }> {
    const iat = this.nowSeconds;
    const payload = {
      appId: app.appId,
      sv: app.secretVersion,
      typ: 'app',
      iat,
      exp: iat + this.config.appTokenTtlSeconds,
      iss: ISSUER,
      aud: this.config.jwtAudience,
      sub: 'AppAuth',
    };
    return { token: await this.sign(payload), payload, expiresAt: payload.exp * 1000 };
  }

  async issueOperatorSession(
    operatorId: string,
    email: string,
    sessionVersion: number,
  ): Promise<{ token: string; payload: JWTPayload; expiresAt: number }> {
    const iat = this.nowSeconds;
    const payload = {
      sub: operatorId,
      email,
      ov: sessionVersion,
      typ: 'operator',
      iat,
      exp: iat + this.config.operatorSessionTtlSeconds,
      iss: ISSUER,
      aud: OPERATOR_AUDIENCE,
    };
    return { token: await this.sign(payload), payload, expiresAt: payload.exp * 1000 };
  }

  private async sign(payload: JWTPayload): Promise<string> {
    const { kid, key } = this.keys[0]!;
    return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid }).sign(await key);
  }

  /**
   * Either kind of app token (or only `only`), checked against the app as it is now. Undefined means
   * 401. A token verified before, of an app in the registry, is answered at once (no promise): the
   * guard of every business request takes that path.
   */
  verifyAppToken(token: string, only?: AppTokenKind): MaybePromise<VerifiedAppToken | undefined> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return undefined;
    const entry = this.verified.get(token);
    return entry ? this.checkCurrent(entry, only) : this.verifyAndRemember(token, only);
  }

  private async verifyAndRemember(
    token: string,
    only: AppTokenKind | undefined,
  ): Promise<VerifiedAppToken | undefined> {
    const entry = await this.verifyUncached(token);
    if (!entry) return undefined;
    this.verified.set(token, entry, { ttl: Math.max(1, (entry.exp - this.nowSeconds) * 1000) });
    return this.checkCurrent(entry, only);
  }

  /** A verified token against the clock and the app's current secret or key version. */
  private checkCurrent(
    entry: CachedAppToken,
    only: AppTokenKind | undefined,
  ): MaybePromise<VerifiedAppToken | undefined> {
    if (only && entry.kind !== only) return undefined;
    const skew = entry.kind === 'app-iss-app-token' ? CLOCK_SKEW_SECONDS : 0;
    if (entry.exp + skew <= this.nowSeconds) return undefined;
    const app = this.registry.read(entry.appId);
    return app instanceof Promise ? app.then((loaded) => this.ofVersion(entry, loaded)) : this.ofVersion(entry, app);
  }

  private ofVersion(entry: CachedAppToken, app: AppRecord | undefined): VerifiedAppToken | undefined {
    // An archived app's tokens stop at once: the registry entry is dropped in every process on archive.
    if (!app || app.archivedAt !== null) return undefined;
    const current = entry.kind === 'app-token' ? app.secretVersion : app.keyVersion;
    if (current !== entry.version) return undefined;
    return { kind: entry.kind, app, payload: entry.payload, exp: entry.exp };
  }

  private async verifyUncached(token: string): Promise<CachedAppToken | undefined> {
    let alg: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      return undefined;
    }
    if (alg === 'HS256') return this.verifyIssued(token);
    if (alg === 'ES256') return this.verifySelfSigned(token);
    return undefined;
  }

  private async verifyIssued(token: string): Promise<CachedAppToken | undefined> {
    const payload = await this.verifyOwn(token, this.config.jwtAudience);
    if (!payload || payload.typ !== 'app' || payload.sub !== 'AppAuth') return undefined;
    if (typeof payload.appId !== 'string' || typeof payload.sv !== 'number' || typeof payload.exp !== 'number')
      return undefined;
    return { kind: 'app-token', appId: payload.appId, version: payload.sv, payload, exp: payload.exp };
  }

  /** ES256 only, against the key of the app named by `iss`; never a key named by the token's header. */
  private async verifySelfSigned(token: string): Promise<CachedAppToken | undefined> {
    let claimed: JWTPayload;
    try {
      claimed = decodeJwt(token);
    } catch {
      return undefined;
    }
    if (typeof claimed.iss !== 'string' || claimed.iss.length === 0 || claimed.iss.length > 200) return undefined;
    const app = await this.registry.get(claimed.iss);
    if (!app) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.registry.publicKey(app), {
        algorithms: ['ES256'],
        issuer: app.appId,
        audience: this.config.jwtAudience,
        subject: 'AppAuth',
        requiredClaims: ['exp', 'iat', 'appId'],
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: new Date(this.now()),
      });
      const { iat, exp } = payload as { iat: unknown; exp: unknown };
      if (payload.appId !== app.appId || typeof iat !== 'number' || typeof exp !== 'number') return undefined;
      if (iat > this.nowSeconds + CLOCK_SKEW_SECONDS || exp <= iat || exp - iat > MAX_SELF_SIGNED_LIFETIME_SECONDS)
        return undefined;
      return { kind: 'app-iss-app-token', appId: app.appId, version: app.keyVersion, payload, exp };
    } catch {
      return undefined;
    }
  }

  async verifyOperatorSession(token: string): Promise<OperatorSession | undefined> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return undefined;
    const payload = await this.verifyOwn(token, OPERATOR_AUDIENCE);
    if (!payload || payload.typ !== 'operator' || typeof payload.sub !== 'string') return undefined;
    const sessionVersion = typeof payload.ov === 'number' ? payload.ov : 0;
    return {
      operatorId: payload.sub,
      email: typeof payload.email === 'string' ? payload.email : '',
      sessionVersion,
      payload,
    };
  }

  private async verifyOwn(token: string, audience: string): Promise<JWTPayload | undefined> {
    try {
      const { kid } = decodeProtectedHeader(token);
      const signing = this.keys.find((k) => k.kid === kid);
      if (!signing) return undefined;
      const { payload } = await jwtVerify(token, await signing.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience,
        requiredClaims: ['exp', 'iat'],
        currentDate: new Date(this.now()),
      });
      return payload;
    } catch {
      return undefined;
    }
  }
}
