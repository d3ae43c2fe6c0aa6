// The bare-driver anchor: a naive service, node:http and the database driver with nothing between them:
// GET /rows/ID is one prepared point read of a ~1 KB JSON row, POST /rows one insert of such a row (the
// body, with a new id), each its own query and, for the insert, its own committed transaction.
// PostgreSQL: a `pg` Pool of 20 (crmkit's PG_POOL_SIZE in the bench), jsonb. SQLite: better-sqlite3 in
// WAL with synchronous=FULL (fsync on every commit, as crmkit's embedded store).
// Usage: node bench/driver.mjs PORT ROWS postgres DATABASE_URL | sqlite FILE
import { createServer } from 'node:http';

const [port, rows, store, where] = process.argv.slice(2);

/** ~1 KB, shaped like a client; bench/anchors.ts reads one row back to build its insert bodies. */
const ROW_FIELDS = {
  name: 'Driver Row Pvt Ltd',
  email: 'accounts@driver-row.example.com',
  phone: '+91 98200 00000',
  gstin: '27AAPFU0939F1ZV',
  address: {
    line1: '12 Bench Road',
    line2: 'Andheri East',
    city: 'Mumbai',
    state: 'MH',
    postalCode: '400069',
    country: 'IN',
  },
  notes: 'n'.repeat(700),
};

async function postgres(url) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  await pool.query('drop table if exists bench_rows');
  await pool.query('create table bench_rows (id text primary key, doc jsonb not null)');
  await pool.query(
    `insert into bench_rows select 'row-' || i, $1::jsonb || jsonb_build_object('id', 'row-' || i) from generate_series(1, $2::int) i`,
    [JSON.stringify(ROW_FIELDS), Number(rows)],
  );
  await pool.query('analyze bench_rows');
  return {
    read: async (id) =>
      (await pool.query({ name: 'read', text: 'select doc from bench_rows where id = $1', values: [id] })).rows[0]?.doc,
    insert: async (doc) => {
      await pool.query({
        name: 'insert',
        text: 'insert into bench_rows (id, doc) values ($1, $2)',
        values: [doc.id, doc],
      });
    },
  };
}

async function sqlite(file) {
  // The same build as crmkit's own (src/storage/sqlite-driver.ts): 13.x on Node 22 and later, 12.x on Node 20.
  const modern = Number(process.versions.node.split('.')[0]) >= 22;
  const { default: Database } = await import(modern ? 'better-sqlite3-node22' : 'better-sqlite3');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('create table bench_rows (id text primary key, doc text not null)');
  const insert = db.prepare('insert into bench_rows (id, doc) values (?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= Number(rows); i++) insert.run(`row-${i}`, JSON.stringify({ ...ROW_FIELDS, id: `row-${i}` }));
  })();
  const read = db.prepare('select doc from bench_rows where id = ?').pluck();
  return {
    read: async (id) => {
      const doc = read.get(id);
      return doc === undefined ? undefined : JSON.parse(doc);
    },
    insert: async (doc) => {
      insert.run(doc.id, JSON.stringify(doc));
    },
  };
}

const send = (res, status, value) => {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
};

const db = store === 'postgres' ? await postgres(where) : await sqlite(where);
createServer((req, res) => {
  const chunks = [];
  req
    .on('data', (chunk) => chunks.push(chunk))
    .on('end', async () => {
      try {
        if (req.method === 'GET' && req.url.startsWith('/rows/')) {
          const doc = await db.read(decodeURIComponent(req.url.slice(6)));
          send(res, doc ? 200 : 404, doc ? { data: doc } : { error: 'not found' });
        } else if (req.method === 'POST' && req.url === '/rows') {
          const doc = JSON.parse(Buffer.concat(chunks).toString());
          await db.insert(doc);
          send(res, 201, { data: doc });
        } else {
          send(res, 404, { error: 'not found' });
        }
      } catch (error) {
        send(res, 500, { error: String(error) });
      }
    });
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
