// A raw node:http server answering every request with one recorded answer: the same status, headers
// and body bytes as the real server's (Node adds Date, Connection and Keep-Alive, as it does there).
// What a server with no work at all of its own would reach with that answer, under the same load.
// Usage: node bench/replay.mjs PORT ANSWER.json   ({ status, headers, body: base64 })
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [port, file] = process.argv.slice(2);
const answer = JSON.parse(readFileSync(file, 'utf8'));
const body = Buffer.from(answer.body, 'base64');
const headers = { ...answer.headers, 'content-length': String(body.length) };
createServer((_req, res) => {
  res.writeHead(answer.status, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
