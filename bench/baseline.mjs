// The yardstick: a raw node:http server answering a fixed 200-byte JSON.
import { createServer } from 'node:http';

const body = JSON.stringify({ success: true, data: { message: 'x'.repeat(162) } });
if (Buffer.byteLength(body) !== 200) throw new Error(`baseline body is ${Buffer.byteLength(body)} bytes`);
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\n'));
