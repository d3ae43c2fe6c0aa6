import { AppError, NotAuthenticatedError } from '../errors/app-error.js';
import type { FieldError } from '../errors/codes.js';
import { withDetail } from '../storage/audit-lines.js';
import type { AuditEntry } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import type { AppRegistry } from './app-registry.js';
import type { AuthFailureLimiter } from './auth-failures.js';
import type { LastUsedRecorder } from './last-used.js';
import type { OperatorRegistry } from './operator-registry.js';
import { fingerprint, hashSecret, verifySecret } from './secrets.js';
import type { AppTokenKind, TokenService } from './token.service.js';
import { LRUCache } from 'lru-cache';

export type AuthenticationRequest =
  | { strategy: 'local'; email: string; password: string }
  | { strategy: 'app-secret'; appId: string; appSecret: string }
  | { strategy: AppTokenKind };

/** Each strategy and the string members it takes beside `strategy`, each required; the OpenAPI body is built from this. */
export const AUTHENTICATION_SHAPES: Readonly<Record<AuthenticationRequest['strategy'], readonly string[]>> = {
  local: ['email', 'password'],
  'app-secret': ['appId', 'appSecret'],
  'app-token': [],
  'app-iss-app-token': [],
};

/** A sanity bound on credentials, in code points like every other length. */
export const CREDENTIAL_MAX_LENGTH = 1024;

/** Checks the body of POST /authentication: a known strategy and exactly its fields, as strings. */
export function parseAuthenticationBody(body: unknown): AuthenticationRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('INVALID_FIELD', 'Request body must be a JSON object');
  const record = body as Record<string, unknown>;
  const strategy = record.strategy;
  const fields =
    typeof strategy === 'string' && Object.hasOwn(AUTHENTICATION_SHAPES, strategy)
      ? AUTHENTICATION_SHAPES[strategy as AuthenticationRequest['strategy']]
      : undefined;
  if (!fields)
    throw new AppError(
      'INVALID_FIELD_VALUE',
      'strategy must be one of local, app-secret, app-token, app-iss-app-token',
      [
        {
          field: 'strategy',
          message: 'strategy must be one of local, app-secret, app-token, app-iss-app-token',
          code: 'INVALID_FIELD_VALUE',
        },
      ],
    );
  const errors: FieldError[] = [];
  for (const key of Object.keys(record)) {
    if (key !== 'strategy' && !fields.includes(key))
      errors.push({ field: key, message: `${key} is not accepted with strategy ${strategy}`, code: 'INVALID_FIELD' });
  }
  for (const field of fields) {
    const value = record[field];
    if (value === undefined || value === null || value === '')
      errors.push({ field, message: `${field} is required`, code: 'INVALID_FIELD_VALUE' });
    else if (typeof value !== 'string')
      errors.push({ field, message: `${field} must be a string`, code: 'INVALID_FIELD' });
    else if ([...value].length > CREDENTIAL_MAX_LENGTH)
      errors.push({ field, message: `${field} is too long`, code: 'INVALID_FIELD_VALUE' });
  }
  if (errors.length > 0) throw AppError.fromFieldErrors(errors);
  return record as unknown as AuthenticationRequest;
}

export class AuthService {
  /** Secrets already checked, by app, secret version and a hash of the secret: memory only, never stored. */
  private readonly checkedSecrets = new LRUCache<string, true>({ max: 10_000, ttl: 10 * 60_000 });

  /**
   * Apps come from the registry, as the token guard's do: a rotated secret drops the entry in every
   * process, and the secret version is part of `checkedSecrets`' key, so an old secret stops at once
   * here and within moments elsewhere (the same freshness as the tokens it issued).
   */
  constructor(
    private readonly store: Store,
    private readonly registry: Pick<AppRegistry, 'get'>,
    private readonly tokens: TokenService,
    private readonly limiter: AuthFailureLimiter,
    private readonly lastUsed: LastUsedRecorder,
    private readonly operators: OperatorRegistry,
    private readonly hashCost: number,
  ) {}

  async login(email: string, password: string, address: string) {
    const account = email.trim().toLowerCase();
    const operator = await this.store.accounts.findOperatorByEmail(account);
    await this.checkCredential(
      account,
      address,
      async () => (await verifySecret(password, operator?.passwordHash, this.hashCost)) && operator !== undefined,
      'Invalid login',
    );
    const session = await this.tokens.issueOperatorSession(
      operator!.publicId,
      operator!.email,
      operator!.sessionVersion,
    );
    return {
      accessToken: session.token,
      expiresAt: new Date(session.expiresAt).toISOString(),
      authentication: { strategy: 'local', payload: session.payload },
      user: { email: operator!.email },
    };
  }

  async tokenFromSecret(appId: string, appSecret: string, address: string) {
    const app = await this.registry.get(appId);
    const cacheKey = app && `${app.appId}:${app.secretVersion}:${fingerprint(appSecret)}`;
    if (cacheKey && this.checkedSecrets.has(cacheKey)) {
      // Already known to be right, so no guess: no scrypt and no counting, but a locked caller stays locked.
      await this.limiter.assertAllowed(appId, address);
    } else {
      await this.checkCredential(
        appId,
        address,
        async () => (await verifySecret(appSecret, app?.secretHash, this.hashCost)) && app !== undefined,
        'Invalid app credentials',
      );
      this.checkedSecrets.set(cacheKey!, true);
    }
    // An archived app keeps its secret (a restore brings it back) but gets no token meanwhile.
    if (app!.archivedAt !== null) throw new NotAuthenticatedError('Invalid app credentials');
    await this.lastUsed.note(app!.appId);
    const issued = await this.tokens.issueAppToken(app!);
    return this.tokenBody(issued.token, app!.name, app!.appId, issued.expiresAt, 'app-secret', issued.payload);
  }

  /**
   * The signed-in operator's own password: the current one checked like a sign-in (scrypt, constant
   * time, under the failure limiter), then a new session version ends every other session of the
   * operator in every process; the caller gets a fresh session so that this tab stays signed in.
   */
  /** `audit`: the operator's line, written with the new password (its detail gains the e-mail). */
  async changeOperatorPassword(
    operatorId: string,
    currentPassword: string,
    newPassword: string,
    address: string,
    audit: AuditEntry | null = null,
  ) {
    const operator = await this.store.accounts.findOperatorByPublicId(operatorId);
    if (!operator) throw new NotAuthenticatedError();
    const wrong = 'currentPassword is not the password of this account';
    await this.checkCredential(
      operator.email,
      address,
      () => verifySecret(currentPassword, operator.passwordHash, this.hashCost),
      AppError.fromFieldErrors([{ field: 'currentPassword', message: wrong, code: 'INVALID_FIELD_VALUE' }]),
    );
    if (newPassword === currentPassword)
      throw AppError.fromFieldErrors([
        {
          field: 'newPassword',
          message: 'newPassword must differ from the current password',
          code: 'INVALID_FIELD_VALUE',
        },
      ]);
    const line = audit && withDetail(audit, { email: operator.email });
    await this.store.accounts.setOperatorPassword(operator.email, await hashSecret(newPassword, this.hashCost), line);
    await this.operators.changed(operator.publicId);
    const fresh = await this.store.accounts.findOperatorByPublicId(operatorId);
    const session = await this.tokens.issueOperatorSession(operator.publicId, operator.email, fresh!.sessionVersion);
    return {
      accessToken: session.token,
      expiresAt: new Date(session.expiresAt).toISOString(),
      user: { email: operator.email },
    };
  }

  /** One credential check under the failure limiter: counted first, given back when it succeeds. */
  private async checkCredential(
    account: string,
    address: string,
    check: () => Promise<boolean>,
    failure: string | Error,
  ): Promise<void> {
    const release = await this.limiter.reserve(account, address);
    if (!(await check())) throw typeof failure === 'string' ? new NotAuthenticatedError(failure) : failure;
    await release();
  }

  async validate(kind: AppTokenKind, token: string | undefined) {
    const verified = token ? await this.tokens.verifyAppToken(token, kind) : undefined;
    if (!verified) throw new NotAuthenticatedError('Invalid token');
    await this.lastUsed.note(verified.app.appId);
    return this.tokenBody(token!, verified.app.name, verified.app.appId, verified.exp * 1000, kind, verified.payload);
  }

  private tokenBody(
    accessToken: string,
    name: string,
    appId: string,
    expiresAt: number,
    strategy: string,
    payload: unknown,
  ) {
    return {
      accessToken,
      name,
      appId,
      expiresAt: new Date(expiresAt).toISOString(),
      authentication: { strategy, payload },
    };
  }
}
