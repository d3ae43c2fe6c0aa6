import { hashSecret, opaqueId, randomSecret } from '../auth/secrets.js';
import { AppError } from '../errors/app-error.js';
import { withDetail } from '../storage/audit-lines.js';
import type { AuditEntry } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { entry } from '../validation/field-spec.js';
import { readBody } from '../validation/read-body.js';

// No NUL, no control character: an e-mail is a key looked up at sign-in (see storage/keys.ts).
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;
/** The longest sign-in e-mail of an operator account (the dashboard reads it from the document). */
export const OPERATOR_EMAIL_MAX_LENGTH = 320;

/** POST /admin/v1/operators. */
export const NEW_OPERATOR_RULES = entry('OperatorInput', 'A new operator account.', [
  [
    'email',
    {
      type: 'string',
      required: true,
      pattern: EMAIL,
      maxLength: OPERATOR_EMAIL_MAX_LENGTH,
      message: 'must be an e-mail address',
      description: 'E-mail address to sign in with; stored lower-case.',
    },
  ],
  [
    'password',
    {
      type: 'string',
      required: true,
      minLength: MIN_PASSWORD_LENGTH,
      maxLength: MAX_PASSWORD_LENGTH,
      message: `must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`,
      description: `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
    },
  ],
]);

export function readNewOperator(body: unknown): { email: string; password: string } {
  return readBody(body, NEW_OPERATOR_RULES);
}

/** Operator accounts. E-mails are kept lower-case, so sign-in ignores case. */
export class OperatorsService {
  /** `hashCost`: scrypt's N for the passwords it hashes (PASSWORD_HASH_COST). */
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly hashCost: number,
  ) {}

  /** `audit`: the operator's line (its detail gains the e-mail as stored), written with the account. */
  async create(email: string, password: string, audit: AuditEntry | null = null) {
    const normalised = email.trim().toLowerCase();
    const created = await this.store.accounts.createOperator(
      { publicId: opaqueId('op_'), email: normalised, passwordHash: await hashSecret(password, this.hashCost) },
      this.now(),
      audit && withDetail(audit, { email: normalised }),
    );
    if (!created.ok)
      throw new AppError('INVALID_FIELD_VALUE', 'An operator with this email already exists', [
        { field: 'email', message: 'An operator with this email already exists', code: 'INVALID_FIELD_VALUE' },
      ]);
    return { email: normalised };
  }

  /** Every operator account, never with a password hash; `isCurrent` marks the caller's own. */
  async list(currentOperatorId: string) {
    return (await this.store.accounts.listOperators()).map((op) => ({
      email: op.email,
      createdAt: new Date(op.createdAt).toISOString(),
      isCurrent: op.publicId === currentOperatorId,
    }));
  }

  /**
   * At start: the configured first operator, or, with none configured and none existing, a generated
   * one whose password is handed back once to be printed on the console (never logged).
   */
  async ensureFirstOperator(
    email: string | null,
    password: string | null,
  ): Promise<{ email: string; password: string } | undefined> {
    if ((await this.store.accounts.countOperators()) > 0) return undefined;
    if (email && password) {
      await this.create(email, password).catch((e: unknown) => {
        if (!(e instanceof AppError)) throw e; // another process created it first
      });
      return undefined;
    }
    const generated = { email: 'admin@localhost', password: randomSecret(18) };
    try {
      await this.create(generated.email, generated.password);
      return generated;
    } catch (error) {
      if (error instanceof AppError) return undefined;
      throw error;
    }
  }

  /** From the command line: a new password, which also ends the operator's sessions in every process. */
  async resetPassword(email: string): Promise<string> {
    const password = randomSecret(18);
    const account = email.trim().toLowerCase();
    if (!(await this.store.accounts.setOperatorPassword(account, await hashSecret(password, this.hashCost)))) {
      throw new Error(`no operator with e-mail ${email}`);
    }
    const operator = await this.store.accounts.findOperatorByEmail(account);
    if (operator) await this.store.changes.publish(`operator:${operator.publicId}`);
    return password;
  }
}
