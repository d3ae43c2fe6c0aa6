import type SQLite from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';

/**
 * Kysely's SQLite dialect with its driver replaced, for two costs measured under load:
 * - Kysely prepares every query afresh, which was the largest single cost of a point read. Our query
 *   texts are few (parameters are bound, never inlined), so statements are kept by their SQL text.
 * - Its connection lock wakes every waiter on each release (only one wins), so with 50 requests
 *   queued a query cost fifty wake-ups. This lock hands the connection to the next waiter in order.
 * The one connection is still held for a whole transaction, so no query runs inside another's.
 */
export class EmbeddedSqliteDialect extends SqliteDialect {
  constructor(private readonly database: SQLite.Database) {
    super({ database });
  }

  override createDriver(): Driver {
    return new EmbeddedSqliteDriver(this.database);
  }
}

class EmbeddedSqliteDriver implements Driver {
  private readonly connection: StatementCachingConnection;
  private locked = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly database: SQLite.Database) {
    this.connection = new StatementCachingConnection(database);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.locked) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.locked = true;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    // The lock passes straight to the next waiter: `locked` stays true for it.
    if (next) next();
    else this.locked = false;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    this.database.close();
  }
}

class StatementCachingConnection implements DatabaseConnection {
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(private readonly database: SQLite.Database) {}

  private prepare(sqlText: string): SQLite.Statement {
    let statement = this.statements.get(sqlText);
    if (!statement) {
      // Bounded, in case a caller ever builds query texts dynamically.
      if (this.statements.size >= 500) this.statements.clear();
      statement = this.database.prepare(sqlText);
      this.statements.set(sqlText, statement);
    }
    return statement;
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    // .all() for anything that returns rows, RETURNING writes included: .get() on a write stops
    // automatic WAL checkpoints (measured: the WAL grew without bound).
    if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
    const { changes, lastInsertRowid } = statement.run(parameters);
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  }

  // biome-ignore lint/correctness/useYield: Kysely's driver interface asks for a generator; nothing here streams.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used with the embedded store');
  }
}
