import type { Kysely } from 'kysely';

/**
 * The delivery log by event (issue 39 defect 8): a resend asks whether the event's last claimed attempt
 * has been logged yet (else that attempt is still in flight and is not sent a second time beside it).
 * Without this index the question scanned the endpoint's whole log (30 days of attempts).
 * Additive only: an older build ignores the index.
 */
export function webhookAttemptsMessageMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('webhook_attempts_message')
        .on('webhook_attempts')
        .columns(['endpoint_pk', 'message_id', 'attempt'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('migrations are not reversed');
    },
  };
}
