import type { Kysely } from 'kysely';
import type { AuditEntry } from './records.js';
import type { Database } from './schema.js';

/**
 * Operator audit lines (docs/decisions.md "Audit lines in the change's transaction"): a store that makes an
 * operator's change takes the line as data and writes it in the change's own transaction, so a change is
 * never kept without its line (a crash, or a refused insert, between the two loses both).
 */

/** One audit line on the connection given: a change's transaction writes the line with the change, or neither is kept. */
export async function writeAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: entry.at,
      operator_email: entry.operatorEmail,
      action: entry.action,
      business_url_key: entry.businessUrlKey,
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
}

/**
 * Runs a store's write and, when it `changed` something (by default always), the operator's line in the same
 * transaction. With no line the write runs as it always did (no transaction added); on a transaction already
 * open, the line joins it.
 */
export async function withAuditLine<T>(
  db: Kysely<Database>,
  audit: AuditEntry | null | undefined,
  write: (db: Kysely<Database>) => Promise<T>,
  changed: (result: T) => boolean = () => true,
): Promise<T> {
  if (!audit) return write(db);
  const both = async (trx: Kysely<Database>) => {
    const result = await write(trx);
    if (changed(result)) await writeAudit(trx, audit);
    return result;
  };
  return db.isTransaction ? both(db) : db.transaction().execute(both);
}

/** The line with more detail, known only where the change is made (an id generated, a count saved). */
export function withDetail(audit: AuditEntry, more: Record<string, unknown>): AuditEntry {
  return { ...audit, detail: { ...(audit.detail as object), ...more } };
}
