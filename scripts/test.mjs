#!/usr/bin/env node
// Runs the whole suite with vitest and ends with the one line CI reads: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, existsSync } from 'node:fs';

mkdirSync('.test-artifacts', { recursive: true });
const report = '.test-artifacts/vitest-report.json';
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const result = spawnSync('npx', args, { stdio: 'inherit', env: process.env });

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests ?? 0;
  failed = (json.numFailedTests ?? 0) + (json.numFailedTestSuites ?? 0);
  skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
}
const ok = result.status === 0 && failed === 0 && passed > 0;
if (!ok && failed === 0) failed = 1; // a crashed or empty run must not read as green
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(ok ? 0 : 1);
