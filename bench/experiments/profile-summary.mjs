// Summarises a V8 .cpuprofile: the functions (or, with --by-package, the packages) with the most
// self time, as shares of the busy samples (idle left out).
// Usage: node bench/experiments/profile-summary.mjs FILE.cpuprofile [rows] [--by-package]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const byPackage = args.includes('--by-package');
const [file, rowsArg] = args.filter((a) => !a.startsWith('--'));
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);

const place = ({ url, lineNumber }) => {
  if (!url) return '';
  const path = url.replace(/^file:\/\/.*?\/(node_modules\/|dist\/)/, '$1');
  if (!byPackage) return `${path}:${lineNumber + 1}`;
  const pkg = /^node_modules\/((@[^/]+\/)?[^/]+)/.exec(path);
  return pkg ? pkg[1] : path.startsWith('node:') ? 'node' : path.replace(/\/[^/]*$/, '/');
};

const groups = new Map();
let idle = 0;
for (const [id, count] of self) {
  const { callFrame } = byId.get(id);
  if (callFrame.functionName === '(idle)') {
    idle += count;
    continue;
  }
  const key = byPackage
    ? place(callFrame) || callFrame.functionName
    : `${callFrame.functionName || '(anonymous)'} ${place(callFrame)}`;
  groups.set(key, (groups.get(key) ?? 0) + count);
}
const busy = profile.samples.length - idle;
console.log(
  `${profile.samples.length} samples, idle ${((100 * idle) / profile.samples.length).toFixed(1)}%; shares of the busy ones:`,
);
for (const [key, count] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, Number(rowsArg ?? 30))) {
  console.log(`${((100 * count) / busy).toFixed(1).padStart(5)}%  ${key}`);
}

// --inclusive=TEXT: time spent in (and below) each function whose location contains TEXT.
const inclusiveArg = args.find((a) => a.startsWith('--inclusive='));
if (inclusiveArg) {
  const wanted = inclusiveArg.slice('--inclusive='.length);
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map();
  for (const [id, count] of self) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const { callFrame } = byId.get(at);
      const key = `${callFrame.functionName || '(anonymous)'} ${place(callFrame)}`;
      if (!key.includes(wanted) || seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + count);
    }
  }
  console.log(`\ninclusive, functions at "${wanted}":`);
  for (const [key, count] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(rowsArg ?? 30))) {
    console.log(`${((100 * count) / busy).toFixed(1).padStart(5)}%  ${key}`);
  }
}
