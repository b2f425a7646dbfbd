import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpuMsSince } from '../probes/own-cpu';
import type { TSseFloorMessage } from './sse-floor';

/**
 * The transport floor of the SSE benchmark (run by `measureSseFloor` as a child process, as
 * the gateway is one): a bare `node:http` server, with no framework, no progress bus and no
 * audits, that holds every request as an event stream of the group its URL names
 * (`/?group=N`) and, on a `play` IPC message, writes a fan-out run's messages to the streams
 * of their group at the moments they were emitted in that run. Each message carries the
 * moment it was due (`emittedAt`, epoch ms, as the workers stamp theirs), so a write that
 * waits for the writes before it counts as late, and is padded to the size of the message it
 * stands for (bytes of the `data` line). Messages of one group that are due together go out
 * in one write per stream, as the gateway writes one bus read.
 *
 * IPC: sends `{ port }` once listening and `{ delivered, cpuMs }` (messages written, counted once
 * per stream; this process's CPU from the play's start, user and system, ms) after the last
 * message; `end` ends every stream and exits.
 */
const groups = new Map<number, Set<ServerResponse>>();
/** Ahead of the first message, so that every stream's timers start from a quiet loop (ms). */
const LEAD_MS = 50;

const server = createServer((req, res) => {
  const group = Number(new URL(req.url ?? '/', 'http://floor').searchParams.get('group') ?? 0);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(': connected\n\n');
  let streams = groups.get(group);
  if (!streams) groups.set(group, (streams = new Set()));
  streams.add(res);
  req.once('close', () => streams.delete(res));
});

/** One SSE message as large as the one it stands for (its `data` line padded to `dataBytes`). */
function frame(id: number, m: TSseFloorMessage, emittedAt: number): string {
  const head = `{"emittedAt":${emittedAt},"padding":"`;
  const padding = 'x'.repeat(Math.max(0, m.dataBytes - head.length - 2));
  return `id: ${id}\nevent: ${m.event}\ndata: ${head}${padding}"}\n\n`;
}

function play(messages: readonly TSseFloorMessage[]): void {
  const order = [...messages].sort((a, b) => a.atMs - b.atMs);
  const seq = new Map<number, number>();
  const cpuAtStart = process.cpuUsage();
  const t0 = Date.now() + LEAD_MS;
  let next = 0;
  let delivered = 0;
  const tick = () => {
    const due = new Map<number, { text: string; count: number }>();
    while (next < order.length && t0 + order[next]!.atMs <= Date.now()) {
      const m = order[next++]!;
      const id = (seq.get(m.group) ?? 0) + 1;
      seq.set(m.group, id);
      const pending = due.get(m.group) ?? { text: '', count: 0 };
      due.set(m.group, {
        text: pending.text + frame(id, m, t0 + m.atMs),
        count: pending.count + 1,
      });
    }
    for (const [group, { text, count }] of due) {
      const body = Buffer.from(text);
      for (const res of groups.get(group) ?? []) {
        res.write(body);
        delivered += count;
      }
    }
    if (next < order.length) setTimeout(tick, Math.max(0, t0 + order[next]!.atMs - Date.now()));
    else {
      process.send!({ delivered, cpuMs: cpuMsSince(cpuAtStart) });
    }
  };
  setTimeout(tick, LEAD_MS);
}

process.on('message', (m: { play: TSseFloorMessage[] } | 'end') => {
  if (m === 'end') {
    for (const streams of groups.values()) for (const res of streams) res.end();
    server.close();
    process.disconnect();
  } else play(m.play);
});

server.listen(0, '127.0.0.1', () => {
  process.send!({ port: (server.address() as AddressInfo).port });
});
