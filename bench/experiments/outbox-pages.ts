// What a webhook event adds to the write that causes it on the embedded store, in the unit that bounds
// it: pages written to the WAL (each one written, fsynced, and later checkpointed into the database).
// A fresh store is migrated to a version; then client creates, each with one outbox row or none, are
// written 50 to a transaction (as the group commit writes POST new client under load), with the
// statements crmkit runs, after 10,000 of the same. WAL pages per create are counted with automatic
// checkpoints off; the time is wall and process CPU per create, and moves with the machine's load.
// Not part of the test suite. Run: npx tsx bench/experiments/outbox-pages.ts   (OUTBOX_PAGES_COUNT=10000)
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { sqliteDriver } from '../../src/storage/sqlite-driver.js';
import { openSqlite } from '../../src/storage/db.js';
import { migrations } from '../../src/storage/migrate.js';
import { newMessageId } from '../../src/webhooks/signing.js';

const COUNT = Number(process.env.OUTBOX_PAGES_COUNT ?? 10_000);
const PER_COMMIT = 50;
/** SQLite's default page size, and a WAL frame's header. */
const FRAME_BYTES = 4096 + 24;
const data = JSON.stringify({
  name: 'x'.repeat(300),
  address: { line1: 'y'.repeat(200), city: 'Pune', pin: '411001' },
  email: 'a@b.c',
  notes: 'z'.repeat(300),
});

async function migratedTo(version: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'crmkit-outbox-pages-'));
  const { db } = openSqlite(dir);
  const { error } = await new Migrator({
    db: db as never,
    provider: { getMigrations: async () => migrations('sqlite') },
  }).migrateTo(version);
  await db.destroy();
  if (error) throw error;
  return dir;
}

async function measure(version: string, withEvents: boolean): Promise<string> {
  const dir = await migratedTo(version);
  const database = new (sqliteDriver())(join(dir, 'crmkit.sqlite'));
  try {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.exec(
      `insert into businesses (url_key, name, country, currency, created_at, updated_at) values ('b', 'b', 'IN', 'INR', 1, 1)`,
    );
    database.exec(`insert into webhook_endpoints (business_pk, public_id, url, event_types, enabled, secret, created_at, updated_at)
      values (1, 'ep', 'https://hooks.example.com/', '["client.created"]', 1, 'whsec_x', 1, 1)`);
    const client =
      database.prepare(`insert into clients (business_pk, client_id, status, source, data, created_at, updated_at)
      values (1, ?, 'active', 'API', ?, ?, ?) on conflict do nothing returning id`);
    const event =
      database.prepare(`insert into webhook_outbox (endpoint_pk, message_id, event_type, resource_key, payload, state, attempts, next_attempt_at, created_at)
      values (1, ?, 'client.created', ?, ?, 'pending', 0, ?, ?)`);
    const commit = database.transaction(() => {
      for (let i = 0; i < PER_COMMIT; i++) {
        const clientId = randomUUID().slice(0, 18);
        const now = Date.now();
        client.get(clientId, data, now, now);
        if (withEvents)
          event.run(
            newMessageId(),
            `client:${clientId}`,
            `{"type":"client.created","timestamp":"2026-11-24T00:00:00.000Z","data":${data}}`,
            now,
            now,
          );
      }
    });
    for (let i = 0; i < 10_000 / PER_COMMIT; i++) commit();
    database.pragma('wal_checkpoint(TRUNCATE)');
    database.pragma('wal_autocheckpoint = 0');
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < COUNT / PER_COMMIT; i++) commit();
    const wallUs = ((performance.now() - started) * 1000) / COUNT;
    const { user, system } = process.cpuUsage(cpu);
    const pages = statSync(join(dir, 'crmkit.sqlite-wal')).size / FRAME_BYTES / COUNT;
    return `${version} | ${withEvents ? 'one outbox row' : 'none'} | ${pages.toFixed(2)} | ${wallUs.toFixed(1)} | ${((user + system) / COUNT).toFixed(1)}`;
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`${new Date().toISOString()}, ${COUNT} client creates, ${PER_COMMIT} to a commit, after 10,000`);
console.log('schema | events | WAL pages per create | wall µs per create | CPU µs per create');
console.log('---|---|---|---|---');
for (let round = 0; round < 2; round++) {
  console.log(await measure('007-lead-words', false));
  console.log(await measure('007-lead-words', true));
  console.log(await measure('009-outbox-claims', true));
}
