import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The transport floor of the SSE benchmark (run by `measureSseFloor` as a child process, as
 * the gateway is one): a bare `node:http` server, with no framework, no progress bus and no
 * audits, that holds every request as an event stream and, on each `burst` IPC message,
 * writes one `step` message to every stream at once. The message carries its emit time
 * (`emittedAt`, epoch ms, as the workers stamp theirs) and is padded to the size given as the
 * first argument (bytes of the `data` line), so it is as large as the gateway's messages.
 *
 * IPC: sends `{ port }` once listening and `{ written }` after each burst; `end` ends every
 * stream and exits.
 */
const dataBytes = Math.max(64, Number(process.argv[2]) || 400);
const streams = new Set<ServerResponse>();
let seq = 0;

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(': connected\n\n');
  streams.add(res);
  req.once('close', () => streams.delete(res));
});

function message(): Buffer {
  seq++;
  const head = `{"stepId":"scrape","status":"done","emittedAt":${Date.now()},"padding":"`;
  const padding = 'x'.repeat(Math.max(0, dataBytes - head.length - 2));
  return Buffer.from(`id: ${seq}\nevent: step\ndata: ${head}${padding}"}\n\n`);
}

process.on('message', (m) => {
  if (m === 'burst') {
    const body = message();
    for (const res of streams) res.write(body);
    process.send!({ written: streams.size });
  } else if (m === 'end') {
    for (const res of streams) res.end();
    server.close();
    process.disconnect();
  }
});

server.listen(0, '127.0.0.1', () => {
  process.send!({ port: (server.address() as AddressInfo).port });
});
