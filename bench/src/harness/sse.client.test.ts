import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse, type TReceivedMessage } from './sse.client';

/** The stream the test server writes, in pieces that cut a message and a UTF-8 character. */
const PIECES = [
  Buffer.from('retry: 3000\n\nid: 1-0\nevent: step\ndata: {"label":"Caf', 'utf8'),
  // 'é' is two bytes in UTF-8: the first ends this piece, the second starts the next.
  Buffer.from([0xc3]),
  Buffer.from([0xa9]),
  Buffer.from('"}\n\n: heartbeat\n\nid: 2-0\nevent: complete\ndata: {"auditId":"a1"}\n\n', 'utf8'),
];

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let i = 0;
    const next = () => {
      if (i === PIECES.length) {
        res.end();
        return;
      }
      res.write(PIECES[i++]);
      setTimeout(next, 15);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/progress`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const withoutTimes = (messages: readonly TReceivedMessage[]) =>
  messages.map(({ id, event, data }) => ({ id, event, data }));

describe('openSse', () => {
  it('gives the same messages and receipt times parsed live or when read', async () => {
    const seen: TReceivedMessage[] = [];
    const live = await openSse(url, { onMessage: (m) => seen.push(m) });
    const kept = await openSse(url);
    expect(await live.done).toBe('ended');
    expect(await kept.done).toBe('ended');

    const expected = [
      { id: '1-0', event: 'step', data: '{"label":"Café"}' },
      { id: '2-0', event: 'complete', data: '{"auditId":"a1"}' },
    ];
    expect(withoutTimes(live.messages)).toEqual(expected);
    expect(withoutTimes(seen)).toEqual(expected);
    expect(withoutTimes(kept.messages)).toEqual(expected);
    // A message is stamped with the receipt of the chunk that completed it: the last piece
    // came at least 3 x 15 ms after the connection opened.
    for (const conn of [live, kept]) {
      const [first, second] = conn.messages;
      expect(first!.receivedAt).toBe(second!.receivedAt);
      expect(first!.receivedAt - conn.connectedAt).toBeGreaterThanOrEqual(40);
    }
    // Reading again parses nothing twice.
    expect(kept.messages).toHaveLength(2);
  });
});
