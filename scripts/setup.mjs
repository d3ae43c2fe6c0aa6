#!/usr/bin/env node
// Installs what the project needs on a fresh machine, and nothing when it is already there.
// Used by `npm run quickstart`, `npm test` and `npm run bench`, so that each is one command.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

// --deps-only (the quick start): npm packages only, nothing from apt, so that starting the service
// needs no root. --no-browser (bench, crash test): no chromium and no PgBouncer (only npm test uses them).
const depsOnly = process.argv.includes('--deps-only');
const wantBrowser = !depsOnly && !process.argv.includes('--no-browser');
const run = (cmd) => execSync(cmd, { stdio: 'inherit' });

const lockHash = createHash('sha256').update(readFileSync('package-lock.json')).digest('hex');
const stamp = 'node_modules/.crmkit-installed';
const installed = existsSync(stamp) && readFileSync(stamp, 'utf8') === lockHash;
if (!installed) {
  console.log('[setup] installing dependencies (npm ci) ...');
  run('npm ci --no-audit --no-fund');
  writeFileSync(stamp, lockHash);
}

if (wantBrowser && !existsSync('/usr/bin/chromium')) {
  // The dashboard tests drive Debian's chromium through playwright-core; never a browser download.
  console.log('[setup] installing Debian chromium for the dashboard tests ...');
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  run(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null`,
  );
}

if (wantBrowser && !existsSync('/usr/sbin/pgbouncer')) {
  // `npm test` runs the PostgreSQL suite a second time through Debian's PgBouncer (transaction mode).
  console.log('[setup] installing Debian pgbouncer for the pooled test pass ...');
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  run(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null`,
  );
  // The package enables a system PgBouncer on port 6432; the tests start their own on a free port.
  execSync(`${sudo}systemctl disable --now pgbouncer 2>/dev/null || true`, { stdio: 'ignore', shell: '/bin/sh' });
}

if (wantBrowser && !existsSync('/usr/bin/pdftoppm')) {
  // The invoice-document tests turn PDFs into PNG pages (pdftoppm) and read their text (pdftotext)
  // with Debian's poppler-utils; never a download.
  console.log('[setup] installing Debian poppler-utils for the invoice PDF tests ...');
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  run(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null`,
  );
}

if (!depsOnly && !existsSync('/usr/bin/wrk')) {
  // npm run bench (and its smoke test in npm test) drive the server with Debian's wrk, a C load
  // generator; never a download.
  console.log('[setup] installing Debian wrk for the bench ...');
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  run(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null`);
}
