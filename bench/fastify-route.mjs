// The bare Fastify anchor: one Fastify route (no hooks, no plugins, no logger) sending a recorded answer's
// exact status, headers and body bytes, on the scenario's own route pattern: what Fastify itself costs
// over bench/replay.mjs, the raw node:http server sending the same answer.
// Usage: node bench/fastify-route.mjs PORT ANSWER.json ROUTE   ({ status, headers, body: base64 })
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, file, route] = process.argv.slice(2);
const answer = JSON.parse(readFileSync(file, 'utf8'));
const body = Buffer.from(answer.body, 'base64');
const app = Fastify({ logger: false });
app.get(route, (_request, reply) => {
  reply.code(answer.status).headers(answer.headers).send(body);
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
