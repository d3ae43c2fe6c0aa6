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
// Random keys, shuffled once: autocannon builds each listed request once and cycles through the list,
// where a setupRequest drawing a key would have the load generator rebuild a request on every call.
// Every connection builds the whole list, so it holds a random sample of at most 10,000 of the keys.
const requests = spec.randomPaths ? shuffled(spec.randomPaths).slice(0, 10_000).map((path) => ({ ...request, path })) : [request];

function shuffled(list) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const result = await autocannon({ url: spec.url, connections: spec.connections, duration: spec.duration, requests });
process.stdout.write(JSON.stringify({
  requestsPerSecond: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.errors + result.timeouts + result.non2xx - (spec.expectStatus >= 300 ? result.non2xx : 0),
  wrong,
  sample,
  total: result.requests.total,
}));
