// The load generator, in its own process: runs one autocannon scenario and prints its figures as JSON.
// Every response is checked; a wrong status or body counts as a wrong answer.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

// The scenario arrives on stdin: a list of 10,000 paths is too long for an argument.
const spec = JSON.parse(readFileSync(0, 'utf8'));
let wrong = 0;
let sample = '';
let counter = 0;
const check = (status, body) => {
  if (status !== spec.expectStatus || (spec.expectText && !body.includes(spec.expectText))) {
    wrong++;
    if (!sample) sample = `${status} ${body.slice(0, 300)}`;
  }
};

const request = { method: spec.method, path: spec.path, headers: spec.headers, onResponse: check };
if (spec.body) request.body = JSON.stringify(spec.body);
if (spec.uniqueClients) {
  request.setupRequest = (req) => ({ ...req, body: JSON.stringify({ clientId: `${spec.uniqueClients}-${process.pid}-${counter++}`, name: 'Bench Client', email: 'bench@example.com', gstin: '27AAPFU0939F1ZV' }) });
}
// Random keys: every stored key, shuffled once, and each request takes the next one, whichever
// connection sends it. A list of requests instead is built in full by every connection before the
// first is sent (10,000 keys took 8-10 s here, long enough for autocannon's 10 s timeout to fire on
// a connection that had sent nothing), and all connections then walk it in step, asking for the
// same keys at the same moment.
if (spec.uniqueLeads) {
  request.setupRequest = (req) => ({ ...req, body: JSON.stringify({
    externalId: `${spec.uniqueLeads}-${process.pid}-${counter++}`, customer: { name: 'Bench Co' }, contact: { name: 'Bench Person', email: 'bench@example.com' },
    pipeline: 'Pipeline 0', stage: 'Stage 0', subject: 'Bench lead', budget: { amount: 1000 },
  }) });
}
if (spec.randomPaths) {
  const paths = shuffled(spec.randomPaths);
  let next = 0;
  // Stage moves: each pass over the keys sends the next body of the cycle, so every request moves its lead.
  const moves = spec.stageMoves;
  request.setupRequest = moves
    ? (req) => {
      const i = next++;
      return { ...req, path: paths[i % paths.length], body: JSON.stringify(moves[Math.floor(i / paths.length) % moves.length]) };
    }
    : (req) => ({ ...req, path: paths[next++ % paths.length] });
}
const requests = [request];

function shuffled(list) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

// Connection errors and timeouts, by message: "6 errors" alone says nothing of what went wrong.
const errorKinds = {};
const result = await new Promise((resolve, reject) => {
  const instance = autocannon({ url: spec.url, connections: spec.connections, ...(spec.amount ? { amount: spec.amount } : { duration: spec.duration }), ...(spec.timeout && { timeout: spec.timeout }), requests }, (error, done) => (error ? reject(error) : resolve(done)));
  instance.on('reqError', (error) => {
    const kind = error.code ?? error.message;
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  });
});
process.stdout.write(JSON.stringify({
  requestsPerSecond: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  // autocannon's errors include its timeouts; answers of the wrong status are counted by `check`.
  errors: result.errors,
  errorKinds,
  wrong,
  sample,
  total: result.requests.total,
}));
