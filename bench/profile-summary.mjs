// Summarises a V8 .cpuprofile: the functions with the most self time, and the idle share.
// Usage: node bench/profile-summary.mjs FILE.cpuprofile [rows]
import { readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
const total = profile.samples.length;
const byFunction = new Map();
for (const [id, count] of self) {
  const { callFrame: f } = byId.get(id);
  const where = f.url ? `${f.url.replace(/^.*\/(node_modules\/|dist\/|node:)/, '$1')}:${f.lineNumber + 1}` : '';
  const key = `${f.functionName || '(anonymous)'} ${where}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + count);
}
const rows = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(rowsArg ?? 30));
console.log(`${total} samples`);
for (const [key, count] of rows) console.log(`${((100 * count) / total).toFixed(1).padStart(5)}%  ${key}`);
