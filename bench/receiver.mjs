// The webhook bench's receiver: a node:http server answering 204 to every delivery and counting them;
// GET answers the count. Deliveries are not verified here (test/http/webhooks.*.test.ts verifies every
// signature with the standardwebhooks package); this only has to be cheaper than the sender.
import { createServer } from 'node:http';

let received = 0;
createServer((request, response) => {
  if (request.method === 'GET') {
    response.end(String(received));
    return;
  }
  request.resume();
  request.on('end', () => {
    received++;
    response.writeHead(204).end();
  });
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\n'));
