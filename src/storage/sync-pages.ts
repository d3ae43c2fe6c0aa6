import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { StoreKind } from './db.js';
import { syncHorizon } from './sync-positions.js';

type Fragment = RawBuilder<unknown>;

/**
 * Where a sync stands (docs/decisions.md "Sync positions"); any table with positions can be synced by
 * syncPage. A sync runs in two phases:
 * - catch-up: the rows whose positions were below the horizon when the sync began (`start`), in
 *   updatedAt then key order (the spec's sync order; the updatedAt index serves it). That set only
 *   shrinks while the sync runs: a row written meanwhile takes a position at or above `start`, and
 *   comes in the next phase.
 * - follow: the positions from `start` on, in position then key order, never past the current horizon.
 * `from` is updatedAtFrom, kept for the whole sync. `start` null: the horizon of this very request
 * (a first page, or a cursor issued before positions existed).
 */
export type SyncCursor =
  | { phase: 'catch-up'; from: number | null; start: number | null; after: { updatedAt: number; key: string } | null }
  | { phase: 'follow'; from: number | null; position: number; key: string };

/** The statement parts of one table's sync page: `alias` names the table in `from`; `key` is its public key column. */
export interface SyncPageSpec {
  kind: StoreKind;
  alias: string;
  key: string;
  from: Fragment;
  /** Tenancy and filters, on `alias`. */
  conditions: Fragment[];
  select: Fragment;
  limit: number;
}

interface SyncColumns {
  sync_position: number | string;
  sync_updated_at: number | string;
  sync_key: string;
}

/**
 * One page of a sync: at most `limit` rows and the cursor after the last one; null only for a page with
 * no row (nothing visible follows yet: resume later from the cursor that asked). A page with rows always
 * names its successor, because "fewer rows than asked for" does not mean "caught up" on PostgreSQL: the
 * horizon may stop a page at exactly `limit` rows, and a null there made the client ask its previous
 * cursor again and receive those rows twice (docs/decisions.md "Sync pages end on an empty page").
 * A catch-up page that runs out of its phase is filled from the next.
 */
export async function syncPage<Row>(
  db: Kysely<any>,
  spec: SyncPageSpec,
  cursor: SyncCursor,
): Promise<{ rows: Row[]; next: SyncCursor | null }> {
  const taken: { row: Row & SyncColumns; at: SyncCursor }[] = [];
  let follow = cursor.phase === 'follow' ? { position: cursor.position, key: cursor.key } : null;
  if (cursor.phase === 'catch-up') {
    const start = cursor.start ?? (await horizonNow(db, spec.kind));
    for (const row of (await catchUpStatement<Row>(spec, cursor, start).execute(db)).rows) {
      const after = { updatedAt: Number(row.sync_updated_at), key: row.sync_key };
      taken.push({ row, at: { phase: 'catch-up', from: cursor.from, start, after } });
    }
    // Keys are never empty: (start, '') excludes nothing at `start`.
    follow = { position: start, key: '' };
  }
  if (taken.length < spec.limit) {
    const rest = spec.limit - taken.length;
    for (const row of (await followStatement<Row>(spec, cursor.from, follow!, rest).execute(db)).rows) {
      const at: SyncCursor = {
        phase: 'follow',
        from: cursor.from,
        position: Number(row.sync_position),
        key: row.sync_key,
      };
      taken.push({ row, at });
    }
  }
  return { rows: taken.map(({ row }) => row), next: taken.at(-1)?.at ?? null };
}

/** The statements a page may run (a catch-up page: both), for the plan checks of the tests. */
export function syncStatements(spec: SyncPageSpec, cursor: SyncCursor): RawBuilder<unknown>[] {
  if (cursor.phase === 'follow') return [followStatement(spec, cursor.from, cursor, spec.limit)];
  const start = cursor.start ?? Number.MAX_SAFE_INTEGER;
  const follow = followStatement(spec, cursor.from, { position: start, key: '' }, spec.limit);
  return [catchUpStatement(spec, cursor, start), follow];
}

const col = (spec: SyncPageSpec, name: string) => sql.ref(`${spec.alias}.${name}`);

function read<Row>(
  spec: SyncPageSpec,
  from: number | null,
  where: Fragment[],
  order: Fragment,
  limit: number,
): RawBuilder<Row & SyncColumns> {
  const all = [...spec.conditions, ...(from === null ? [] : [sql`${col(spec, 'updated_at')} >= ${from}`]), ...where];
  return sql<Row & SyncColumns>`select ${spec.select},
      ${col(spec, 'sync_pos')} as sync_position, ${col(spec, 'updated_at')} as sync_updated_at,
      ${col(spec, spec.key)} as sync_key
    from ${spec.from} where ${sql.join(all, sql` and `)} order by ${order} limit ${limit}`;
}

/** Catch-up: positions below `start`, by updatedAt then key. */
function catchUpStatement<Row>(spec: SyncPageSpec, cursor: SyncCursor & { phase: 'catch-up' }, start: number) {
  const where = [sql`${col(spec, 'sync_pos')} < ${start}`];
  const [updatedAt, keyColumn] = [col(spec, 'updated_at'), col(spec, spec.key)];
  if (cursor.after) where.push(sql`(${updatedAt}, ${keyColumn}) > (${cursor.after.updatedAt}, ${cursor.after.key})`);
  return read<Row>(spec, cursor.from, where, sql`${updatedAt} asc, ${keyColumn} asc`, spec.limit);
}

/** Follow: after (position, key), below the horizon, by position then key. */
function followStatement<Row>(
  spec: SyncPageSpec,
  from: number | null,
  after: { position: number; key: string },
  limit: number,
) {
  const [position, keyColumn] = [col(spec, 'sync_pos'), col(spec, spec.key)];
  const where = [
    sql`(${position}, ${keyColumn}) > (${after.position}, ${after.key})`,
    sql`${position} < ${syncHorizon(spec.kind)}`,
  ];
  return read<Row>(spec, from, where, sql`${position} asc, ${keyColumn} asc`, limit);
}

async function horizonNow(db: Kysely<any>, kind: StoreKind): Promise<number> {
  const {
    rows: [row],
  } = await sql<{ horizon: number | string }>`select ${syncHorizon(kind)} as horizon`.execute(db);
  return Number(row!.horizon);
}

/** A cursor names its sync's scope (e.g. `leads:<urlKey>`): a cursor of another business is refused, not read. */
const scopeTag = (scope: string) => createHash('sha256').update(scope).digest('base64url').slice(0, 10);

/** The opaque `nextCursor`: not secret, it only says where to continue in the caller's own rows. */
export function encodeSyncCursor(cursor: SyncCursor, scope: string): string {
  const fields =
    cursor.phase === 'catch-up'
      ? ['c', cursor.from, cursor.start, cursor.after?.updatedAt ?? null, cursor.after?.key ?? null]
      : ['f', cursor.from, cursor.position, cursor.key];
  return Buffer.from(JSON.stringify([2, scopeTag(scope), ...fields])).toString('base64url');
}

const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const orNull = (v: unknown): v is number | null => v === null || whole(v);
const key = (v: unknown): v is string => typeof v === 'string' && v.length <= 128;

/**
 * The cursor, or why not. Version 1 (`[1, tag, updatedAt, key]`, issued before positions) reads on as a
 * catch-up from that place, so a sync running across the upgrade continues.
 */
export function decodeSyncCursor(text: string, scope: string): SyncCursor | 'malformed' | 'foreign' {
  let p: unknown;
  try {
    p = /^[A-Za-z0-9_-]{1,500}$/.test(text) ? JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) : undefined;
  } catch {
    return 'malformed';
  }
  if (!Array.isArray(p) || typeof p[1] !== 'string') return 'malformed';
  let cursor: SyncCursor | undefined;
  if (p[0] === 1 && p.length === 4 && whole(p[2]) && key(p[3])) {
    cursor = { phase: 'catch-up', from: null, start: null, after: { updatedAt: p[2], key: p[3] } };
  } else if (
    p[0] === 2 &&
    p[2] === 'c' &&
    p.length === 7 &&
    orNull(p[3]) &&
    orNull(p[4]) &&
    orNull(p[5]) &&
    (p[6] === null || key(p[6])) &&
    (p[5] === null) === (p[6] === null)
  ) {
    const after = p[5] === null ? null : { updatedAt: p[5], key: p[6] as string };
    cursor = { phase: 'catch-up', from: p[3], start: p[4], after };
  } else if (p[0] === 2 && p[2] === 'f' && p.length === 6 && orNull(p[3]) && whole(p[4]) && key(p[5])) {
    cursor = { phase: 'follow', from: p[3], position: p[4], key: p[5] };
  }
  if (!cursor) return 'malformed';
  return p[1] === scopeTag(scope) ? cursor : 'foreign';
}
