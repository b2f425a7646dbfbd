import { request, type Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';

/** One Server-Sent Events message as received: `id`, `event`, raw `data`, receipt time. */
export interface TReceivedMessage {
  id: string | undefined;
  event: string;
  data: string;
  /** Epoch ms (sub-ms precision) when the chunk holding the message arrived. */
  receivedAt: number;
}

/** An open SSE stream. */
export interface TSseConnection {
  /** Epoch ms when the answer's headers arrived (the stream is live from then on). */
  readonly connectedAt: number;
  /** Messages so far, in arrival order (chunks kept since the last read are parsed now). */
  readonly messages: TReceivedMessage[];
  /** Settles when the server ends the stream ('ended') or the connection breaks ('closed'). */
  readonly done: Promise<'ended' | 'closed'>;
  /** Closes the connection from this side. */
  close(): void;
}

/** Epoch ms with sub-millisecond precision. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

/** Options of {@link openSse}. */
export interface TOpenSseOptions {
  headers?: Record<string, string>;
  /** A keep-alive agent shared by many streams (`maxSockets: Infinity`). */
  agent?: Agent;
  /** Longest wait for the answer's headers (ms). Default 30 000. */
  connectTimeoutMs?: number;
  /** Called for each message right after it was recorded (keep it cheap: it delays the next). */
  onMessage?: (m: TReceivedMessage) => void;
}

/**
 * Opens `url` as an SSE stream with plain `node:http` (cheap enough for thousands of streams in
 * one process) and parses it with eventsource-parser. The receipt time is taken once per TCP
 * chunk, before anything else is done with it. Without `onMessage`, the chunks are kept as
 * they came (bytes and receipt time) and decoded and parsed only when `messages` is read: a
 * load generator holding thousands of streams then does the least per chunk while events
 * arrive, so its own work delays the receipt of the next chunks as little as possible (the
 * messages and their receipt times are the same either way).
 *
 * Resolves once the headers arrived. @throws Error '<status>: <body>' for a non-200 answer, or
 * on a connect timeout or socket error before the headers.
 */
export function openSse(url: string, opts: TOpenSseOptions = {}): Promise<TSseConnection> {
  return new Promise((resolve, reject) => {
    const messages: TReceivedMessage[] = [];
    let chunkAt = 0;
    let settleDone!: (how: 'ended' | 'closed') => void;
    const done = new Promise<'ended' | 'closed'>((r) => (settleDone = r));
    const parser = createParser({
      onEvent: (e) => {
        const m = { id: e.id, event: e.event ?? 'message', data: e.data, receivedAt: chunkAt };
        messages.push(m);
        opts.onMessage?.(m);
      },
    });
    const req = request(url, {
      method: 'GET',
      agent: opts.agent,
      headers: { accept: 'text/event-stream', ...opts.headers },
    });
    const timer = setTimeout(
      () =>
        req.destroy(
          new Error(`no answer from ${url} within ${opts.connectTimeoutMs ?? 30_000} ms`),
        ),
      opts.connectTimeoutMs ?? 30_000,
    );
    req.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
      settleDone('closed');
    });
    req.once('response', (res) => {
      clearTimeout(timer);
      const connectedAt = nowMs();
      if (res.statusCode !== 200) {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.once('end', () => reject(new Error(`${res.statusCode}: ${body || res.statusMessage}`)));
        return;
      }
      const decoder = new TextDecoder();
      const pending: Buffer[] = [];
      const pendingAt: number[] = [];
      const feed = (chunk: Buffer, at: number) => {
        chunkAt = at;
        parser.feed(decoder.decode(chunk, { stream: true }));
      };
      const live = opts.onMessage !== undefined;
      res.on('data', (chunk: Buffer) => {
        const at = nowMs();
        if (live) feed(chunk, at);
        else {
          pending.push(chunk);
          pendingAt.push(at);
        }
      });
      res.on('error', () => settleDone('closed'));
      res.once('end', () => settleDone('ended'));
      res.once('close', () => settleDone(res.complete ? 'ended' : 'closed'));
      resolve({
        connectedAt,
        get messages() {
          for (let i = 0; i < pending.length; i++) feed(pending[i]!, pendingAt[i]!);
          pending.length = 0;
          pendingAt.length = 0;
          return messages;
        },
        done,
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}

/** Streams opened at once by {@link openStreams}. */
export const CONNECT_CONCURRENCY = 64;

/**
 * Opens `count` streams with `open(i)`, {@link CONNECT_CONCURRENCY} at a time, and returns them
 * by index; `onOpened(n)` runs (awaited) each time the n-th stream is open, before that lane
 * opens its next. @throws what `open` throws (streams opened so far stay open: close them, or
 * destroy their agent).
 */
export async function openStreams(
  count: number,
  open: (i: number) => Promise<TSseConnection>,
  onOpened?: (opened: number) => Promise<void>,
): Promise<TSseConnection[]> {
  const conns = new Array<TSseConnection>(count);
  let next = 0;
  let opened = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      conns[i] = await open(i);
      opened++;
      await onOpened?.(opened);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONNECT_CONCURRENCY, count) }, lane));
  return conns;
}
