#!/usr/bin/env node
// Runs the suite in passes, each on what it can find: the main pass runs every test file once per store
// in UTC; the files tagged `dates` again in Asia/Kolkata; the PostgreSQL files tagged `pooled` again
// through a real PgBouncer in transaction mode; and with `--node24` (as .ci/run does) the passes above run
// on Node 24 LTS, the primary runtime, while the files tagged `smoke` run on the machine's own Node as the
// second runtime (docs/decisions.md "The test loop"). Tags are declared by the test files
// (scripts/test-tags.mjs). The passes run on two lines from the start: the main pass on one, and the
// PgBouncer, browser (test/e2e/, taken out of the main pass), Asia/Kolkata and smoke passes one after
// another on the other, with a PostgreSQL database of their own (a file the two lines both run may then
// run twice at once). The main pass alone left about half of the two cores idle (its process and browser
// tests mostly wait on servers), so the second line fills that time instead of adding its own
// (docs/decisions.md "The test loop, fourth cut" and "seventh cut"). Ends with each pass's wall time, the
// run's, and then the one line CI reads, "N passed, N failed", counting every pass.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdirSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import pg from 'pg';
import { NODE_MAJOR, ensureNode } from './node24.mjs';
import { startPgBouncer } from './pgbouncer.mjs';
import { filesTagged } from './test-tags.mjs';

const OWN_FLAGS = ['--no-pooled', '--node24', '--only-pooled'];
const args = process.argv.slice(2);
// File filters (a quick local run) run the main pass alone, on those files, in both time zones.
const filtered = args.some((a) => !a.startsWith('-'));
// `--no-pooled` skips the PgBouncer pass; `--only-pooled` runs it alone (to check it without the rest).
const pooled = !args.includes('--no-pooled') && !filtered;
const onlyPooled = args.includes('--only-pooled');
const node24 = args.includes('--node24');
const vitestArgs = args.filter((a) => !OWN_FLAGS.includes(a));

mkdirSync('.test-artifacts', { recursive: true });

/**
 * The suite runs on a database of its own, made empty for the run: `<name>_run` beside the configured
 * one (TEST_DATABASE_URL, else the machine's `test`), dropped at the end. A database left behind by an
 * earlier checkout (another build's migrations, a crashed run's rows) must not decide this run's
 * verdict: a CI run once failed every PostgreSQL test on "the database schema is newer than this build".
 */
const configuredUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** `<configured>_<suffix>`: the run's databases, beside the configured one. */
function besideConfigured(suffix) {
  const url = new URL(configuredUrl);
  url.pathname = `/${url.pathname.slice(1)}_${suffix}`;
  return url;
}
/** The main pass's database, and the second line's (PgBouncer, Asia/Kolkata, smoke). */
const runUrl = besideConfigured('run');
const besideUrl = besideConfigured('run_beside');

/** Runs one statement on the configured database (the maintenance connection); false when unreachable. */
async function onServer(statement) {
  const client = new pg.Client({ connectionString: configuredUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch {
    return false; // no PostgreSQL: the suite's own probe skips or, with CI=true, fails
  }
  try {
    await client.query(statement);
    return true;
  } finally {
    await client.end();
  }
}

const quoted = (url) => `"${url.pathname.slice(1).replaceAll('"', '""')}"`;
/** Drops and creates the run's databases; false when PostgreSQL is not reachable. */
async function freshDatabases() {
  for (const url of [runUrl, besideUrl]) {
    if (!(await onServer(`drop database if exists ${quoted(url)} with (force)`))) return false;
    await onServer(`create database ${quoted(url)}`);
  }
  return true;
}
const ownDatabases = await freshDatabases();
if (ownDatabases) {
  process.env.TEST_DATABASE_URL = runUrl.href;
  console.log(
    `[test] PostgreSQL: fresh databases for this run, ${quoted(runUrl)} (main pass) and ${quoted(besideUrl)} (the others)`,
  );
}
/** The environment of a pass on the second line: its own database when the run made one. */
const onSecondLine = (env) => (ownDatabases ? { ...env, TEST_DATABASE_URL: besideUrl.href } : env);

/** What went wrong in each pass, printed again at the very end: CI shows only the tail of the output. */
const problems = [];

/**
 * Runs vitest with its output kept (the last 2 MB) to quote what failed: passed through as it comes, or,
 * with `held` (a pass running beside another), printed in one piece when the pass ends.
 */
function vitest(args, env, held) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', ...args], { stdio: ['inherit', 'pipe', 'pipe'], env });
    const kept = [];
    let keptBytes = 0;
    const keep = (chunk) => {
      kept.push(chunk);
      keptBytes += chunk.length;
      while (keptBytes > 2_000_000 && kept.length > 1) keptBytes -= kept.shift().length;
    };
    child.stdout.on('data', (chunk) => (held || process.stdout.write(chunk), keep(chunk)));
    child.stderr.on('data', (chunk) => (held || process.stderr.write(chunk), keep(chunk)));
    child.on('close', (status) => {
      const output = Buffer.concat(kept).toString();
      if (held)
        process.stdout.write(
          `\n[test] ---- ${held} pass, its output ----\n${output}\n[test] ---- end of the ${held} pass ----\n`,
        );
      resolve({ status, output });
    });
  });
}

async function runVitest(name, extraArgs, env, held) {
  const version = spawnSync('node', ['--version'], { encoding: 'utf8', env }).stdout.trim();
  const pass = name ? name.slice(1) : 'main';
  console.log(`[test] ${pass} pass: vitest on Node ${version}${held ? ' (its output when it ends)' : ''}`);
  const report = `.test-artifacts/vitest-report${name}.json`;
  rmSync(report, { force: true });
  const result = await vitest(
    ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extraArgs],
    env,
    held && pass,
  );
  const counts = { passed: 0, failed: 0, skipped: 0 };
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    counts.passed = json.numPassedTests ?? 0;
    // Failed tests, and each file that failed with no failed test (it did not load, a hook threw): vitest's
    // numFailedTestSuites counts every describe block above a failed test as well, which counted one
    // failure up to three times.
    counts.failed = json.numFailedTests ?? 0;
    counts.skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    for (const file of json.testResults ?? []) {
      const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of failedTests)
        problems.push(
          `${pass}: FAILED ${file.name} > ${test.fullName}\n${firstLines(test.failureMessages?.join('\n'))}`,
        );
      if (file.status === 'failed' && failedTests.length === 0) {
        counts.failed += 1;
        problems.push(`${pass}: FAILED ${file.name}\n${firstLines(file.message)}`);
      }
    }
  }
  // Errors no test caught (vitest's "Unhandled Errors"): they fail the run even when every test passed.
  const plain = stripVTControlCharacters(result.output);
  const unhandled = plain.search(/Unhandled (Errors?|Rejection)/);
  if (unhandled >= 0) problems.push(`${pass}: ${plain.slice(unhandled, unhandled + 4000)}`);
  if ((result.status !== 0 || counts.passed === 0) && counts.failed === 0) {
    counts.failed = 1; // a crashed or empty run must not read as green
    if (unhandled < 0)
      problems.push(`${pass}: vitest exited with status ${result.status} and no failed test\n${plain.slice(-2000)}`);
  }
  console.log(`[test] ${pass} pass: ${counts.passed} passed, ${counts.failed} failed`);
  return counts;
}

/** The head of a failure message: enough to tell which assertion and where. */
function firstLines(text = '', lines = 6) {
  return stripVTControlCharacters(text)
    .split('\n')
    .slice(0, lines)
    .map((line) => `    ${line}`)
    .join('\n');
}

/** Where a pass runs: the primary runtime (Node 24 with --node24) or the machine's own Node. */
function machineRuntime() {
  return { env: process.env, version: process.version };
}

function primaryRuntime() {
  if (!node24 || Number(process.versions.node.split('.')[0]) === NODE_MAJOR) return machineRuntime();
  const target = ensureNode();
  // First on PATH: vitest (through npx), the servers it spawns and `npm start` all run on it.
  return { env: { ...process.env, PATH: `${dirname(target.node)}:${process.env.PATH}` }, version: target.version };
}

const total = { passed: 0, failed: 0, skipped: 0 };
/** Each pass's wall time, printed at the end. */
const timings = [];

async function pass(name, extraArgs, env, version, held = false) {
  const started = performance.now();
  const counts = await runVitest(name === 'main' ? '' : `-${name.replace('/', '-')}`, extraArgs, env, held);
  timings.push({ name, version, seconds: (performance.now() - started) / 1000, counts });
  for (const key of Object.keys(total)) total[key] += counts[key];
}

let primary;
try {
  primary = primaryRuntime();
} catch (error) {
  console.error(`[test] Node ${NODE_MAJOR}: ${error.message}`);
  problems.push(`Node ${NODE_MAJOR} could not be installed: ${error.message}`);
  total.failed += 1;
}

/**
 * The browser tests run in a pass of their own on the second line, once per store on the primary runtime
 * as they did inside the main pass; the main pass takes every other folder of test/ (found here, so a new
 * folder is never left out). docs/decisions.md "The test loop, seventh cut".
 */
const BROWSER_FOLDER = 'e2e';
const mainFolders = readdirSync('test', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== BROWSER_FOLDER)
  .map((entry) => `test/${entry.name}/`);

const runStarted = performance.now();
// Two lines side by side; the second holds its output until each of its passes ends.
await Promise.all([
  primary &&
    !onlyPooled &&
    pass(
      'main',
      filtered ? vitestArgs : ['--project', 'UTC*', ...mainFolders, ...vitestArgs],
      primary.env,
      primary.version,
    ),
  secondLine(),
]);

/** PgBouncer, then the browser tests, then Asia/Kolkata, then smoke: beside the main pass, on a database of their own. */
async function secondLine() {
  const held = Boolean(primary && !onlyPooled);
  if (primary && (pooled || onlyPooled)) await pooledPass(primary, held);
  if (onlyPooled || filtered) return;
  if (primary)
    await pass(
      'browser',
      ['--project', 'UTC*', `test/${BROWSER_FOLDER}/`, ...vitestArgs],
      onSecondLine(primary.env),
      primary.version,
      held,
    );
  if (primary)
    await pass(
      'Asia/Kolkata',
      ['--project', 'Asia/Kolkata*', ...vitestArgs],
      onSecondLine(primary.env),
      primary.version,
      held,
    );
  if (node24 && primary && primary.version !== process.version) {
    // The second runtime: what can differ between Node versions (the SQLite driver, npm start, the
    // README's commands), and the pure rules, which lean on the runtime's Intl data.
    const smokeFiles = ['test/unit/', ...filesTagged('smoke')];
    await pass('smoke', ['--project', 'UTC*', ...smokeFiles], onSecondLine(process.env), process.version, held);
  }
}

/** The files tagged pooled again, through a PgBouncer of their own, on PostgreSQL alone. */
async function pooledPass(runtime, held) {
  const direct = onSecondLine(process.env).TEST_DATABASE_URL ?? configuredUrl;
  const database = new URL(direct).pathname.slice(1);
  // Fewer server connections than the instances' pools together (5 per test app, 10 per spawned server).
  const bouncer = await startPgBouncer({ upstream: direct, poolSize: 6 }).catch((error) => {
    console.error(`[test] PgBouncer pass: ${error.message}`);
    return null;
  });
  if (!bouncer) return void (total.failed += 1);
  console.log(
    `\n[test] the files tagged pooled again, through PgBouncer (transaction mode, pool ${bouncer.poolSize}) on port ${bouncer.port}\n`,
  );
  const writesSeen = '.test-artifacts/writes-pgbouncer';
  rmSync(writesSeen, { recursive: true, force: true });
  try {
    await pass(
      'pgbouncer',
      ['--project', 'UTC*', ...filesTagged('pooled')],
      {
        ...runtime.env,
        TEST_DATABASE_URL: bouncer.url(database),
        TEST_DATABASE_DIRECT_URL: direct,
        TEST_STORES: 'postgres',
        TEST_WRITES_SEEN: writesSeen,
      },
      runtime.version,
      held,
    );
  } finally {
    await bouncer.stop();
  }
  checkWritePaths(writesSeen);
}

/** Every documented write operation must have succeeded at least once through the pooler. */
function checkWritePaths(folder) {
  const listed = join(folder, 'documented.txt');
  if (!existsSync(listed))
    return void (problems.push('pgbouncer: no write was recorded (TEST_WRITES_SEEN)'), (total.failed += 1));
  const seen = new Set(
    readdirSync(folder)
      .filter((f) => f.startsWith('seen-'))
      .flatMap((f) =>
        readFileSync(join(folder, f), 'utf8')
          .split('\n')
          .map((line) => line.split('\t')[1]),
      ),
  );
  const missed = readFileSync(listed, 'utf8')
    .split('\n')
    .filter((op) => op && !seen.has(op));
  if (missed.length === 0)
    return void console.log('[test] pgbouncer pass: every documented write path succeeded through the pooler');
  problems.push(
    `pgbouncer: write paths no pooled test drove (tag an HTTP test file that does: // @module-tag pooled):\n${missed.map((op) => `    ${op}`).join('\n')}`,
  );
  total.failed += 1;
}

if (ownDatabases)
  for (const url of [runUrl, besideUrl])
    await onServer(`drop database if exists ${quoted(url)} with (force)`).catch(() => undefined);

if (problems.length > 0) console.log(`\n[test] what failed, pass by pass:\n\n${problems.join('\n\n')}\n`);
const minutes = (seconds) => `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
console.log('\n[test] wall time of each pass:');
for (const t of timings)
  console.log(
    `[test]   ${t.name.padEnd(13)} ${minutes(t.seconds).padStart(7)}  Node ${t.version}  (${t.counts.passed} passed, ${t.counts.failed} failed)`,
  );
// The two lines overlap, so the run's wall time is less than the passes' sum.
console.log(`[test]   ${'whole run'.padEnd(13)} ${minutes((performance.now() - runStarted) / 1000).padStart(7)}`);
const { passed, failed, skipped } = total;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
