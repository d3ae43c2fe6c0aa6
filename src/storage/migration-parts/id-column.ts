import type { Kysely } from 'kysely';
import type { StoreKind } from '../db.js';

type TableBuilder = ReturnType<Kysely<unknown>['schema']['createTable']>;

/** The internal row id of a new table, in each dialect. Row ids never leave the store layer. */
export function idColumn(kind: StoreKind) {
  return (table: TableBuilder) =>
    kind === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
