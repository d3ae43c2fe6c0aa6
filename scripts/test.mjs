#!/usr/bin/env node
// Runs the whole suite with vitest, then the PostgreSQL behavioural suite once more through a real
// PgBouncer in transaction mode, and with `--node24` (as .ci/run does) the whole suite once more on
// Node 24 LTS. Ends with the one line CI reads: "N passed, N failed", counting every pass.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureNode } from './node24.mjs';
import { startPgBouncer } from './pgbouncer.mjs';

const OWN_FLAGS = ['--no-pooled', '--node24', '--only-pooled'];
const args = process.argv.slice(2);
// `--no-pooled` skips the PgBouncer pass (a quick local run); file filters apply to the main and Node 24 passes.
const pooled = !args.includes('--no-pooled') && !args.some((a) => !a.startsWith('-'));
const node24 = args.includes('--node24');
// `--only-pooled`: the PgBouncer pass alone (to check it without the rest).
const onlyPooled = args.includes('--only-pooled');
const vitestArgs = args.filter((a) => !OWN_FLAGS.includes(a));

/** The suite's files that test PostgreSQL, run again behind the pooler: HTTP behaviour, storage, processes, client. */
const POOLED_FILES = ['test/http/', 'test/storage/postgres-', 'test/storage/rate-limits', 'test/process/', 'test/reliability/', 'test/client/'];
// Embedded-store-only files, and the three-instance tests (they start a PgBouncer of their own in the first pass).
const POOLED_EXCLUDE = ['**/*three-instances*', 'test/process/hostile.socket*', 'test/process/limits.socket*', 'test/process/npm-start*', 'test/process/readme.integrate*'];

mkdirSync('.test-artifacts', { recursive: true });

/** What went wrong in each pass, printed again at the very end: CI shows only the tail of the output. */
const problems = [];

/** Runs vitest with its output passed through as it comes, kept (the last 2 MB) to quote what failed. */
function vitest(args, env) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', ...args], { stdio: ['inherit', 'pipe', 'pipe'], env });
    const kept = [];
    let keptBytes = 0;
    const keep = (chunk) => {
      kept.push(chunk);
      keptBytes += chunk.length;
      while (keptBytes > 2_000_000 && kept.length > 1) keptBytes -= kept.shift().length;
    };
    child.stdout.on('data', (chunk) => (process.stdout.write(chunk), keep(chunk)));
    child.stderr.on('data', (chunk) => (process.stderr.write(chunk), keep(chunk)));
    child.on('close', (status) => resolve({ status, output: Buffer.concat(kept).toString() }));
  });
}

async function runVitest(name, extraArgs, env) {
  const version = spawnSync('node', ['--version'], { encoding: 'utf8', env }).stdout.trim();
  const pass = name ? name.slice(1) : 'main';
  console.log(`[test] ${pass} pass: vitest on Node ${version}`);
  const report = `.test-artifacts/vitest-report${name}.json`;
  rmSync(report, { force: true });
  const result = await vitest(['--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extraArgs], env);
  const counts = { passed: 0, failed: 0, skipped: 0 };
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    counts.passed = json.numPassedTests ?? 0;
    counts.failed = (json.numFailedTests ?? 0) + (json.numFailedTestSuites ?? 0);
    counts.skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    for (const file of json.testResults ?? []) {
      const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of failedTests) problems.push(`${pass}: FAILED ${file.name} > ${test.fullName}\n${firstLines(test.failureMessages?.join('\n'))}`);
      if (file.status === 'failed' && failedTests.length === 0) problems.push(`${pass}: FAILED ${file.name}\n${firstLines(file.message)}`);
    }
  }
  // Errors no test caught (vitest's "Unhandled Errors"): they fail the run even when every test passed.
  const plain = result.output.replace(/\x1b\[[0-9;]*m/g, '');
  const unhandled = plain.search(/Unhandled (Errors?|Rejection)/);
  if (unhandled >= 0) problems.push(`${pass}: ${plain.slice(unhandled, unhandled + 4000)}`);
  if ((result.status !== 0 || counts.passed === 0) && counts.failed === 0) {
    counts.failed = 1; // a crashed or empty run must not read as green
    if (unhandled < 0) problems.push(`${pass}: vitest exited with status ${result.status} and no failed test\n${plain.slice(-2000)}`);
  }
  console.log(`[test] ${pass} pass: ${counts.passed} passed, ${counts.failed} failed`);
  return counts;
}

/** The head of a failure message: enough to tell which assertion and where. */
function firstLines(text = '', lines = 6) {
  return text.replace(/\x1b\[[0-9;]*m/g, '').split('\n').slice(0, lines).map((line) => `    ${line}`).join('\n');
}

const total = onlyPooled ? { passed: 0, failed: 0, skipped: 0 } : await runVitest('', vitestArgs, process.env);

if (pooled || onlyPooled) {
  const direct = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = new URL(direct).pathname.slice(1);
  // Fewer server connections than the instances' pools together (5 per test app, 10 per spawned server).
  const bouncer = await startPgBouncer({ upstream: direct, poolSize: 6 }).catch((error) => {
    console.error(`[test] PgBouncer pass: ${error.message}`);
    return null;
  });
  if (!bouncer) total.failed += 1;
  else {
    console.log(`\n[test] the PostgreSQL suite again, through PgBouncer (transaction mode, pool ${bouncer.poolSize}) on port ${bouncer.port}\n`);
    try {
      const counts = await runVitest('-pgbouncer', ['--project', 'UTC', ...POOLED_EXCLUDE.map((p) => `--exclude=${p}`), ...POOLED_FILES], {
        ...process.env, TEST_DATABASE_URL: bouncer.url(database), TEST_DATABASE_DIRECT_URL: direct, TEST_STORES: 'postgres',
      });
      for (const key of Object.keys(total)) total[key] += counts[key];
    } finally {
      await bouncer.stop();
    }
  }
}

if (node24) {
  // The whole suite (both stores) on Node 24; the PgBouncer pass above is not repeated.
  try {
    const target = ensureNode();
    // First on PATH: vitest (through npx), the servers it spawns and `npm start` all run on it.
    const counts = await runVitest('-node24', vitestArgs, { ...process.env, PATH: `${dirname(target.node)}:${process.env.PATH}` });
    for (const key of Object.keys(total)) total[key] += counts[key];
  } catch (error) {
    console.error(`[test] Node 24 pass: ${error.message}`);
    total.failed += 1;
  }
}

if (problems.length > 0) console.log(`\n[test] what failed, pass by pass:\n\n${problems.join('\n\n')}\n`);
const { passed, failed, skipped } = total;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
