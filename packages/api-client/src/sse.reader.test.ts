import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from './api.error';
import { readSse, type TSseMessage } from './sse.reader';

let server: Server;
let base: string;
let lastEventId: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    lastEventId = req.headers['last-event-id'] as string | undefined;
    if (req.url === '/missing') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Audit not found', code: 'NOT_FOUND' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // One message split across writes, a comment, and a message without an event name.
    res.write('retry: 3000\n\n: heartbeat\n\nid: 1-0.0\nevent: step\nda');
    setTimeout(() => {
      res.write('ta: {"step_id":"scrape"}\n\n');
      res.end('id: 1-0.1\ndata: plain\n\n');
    }, 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('readSse', () => {
  it('yields each message as it is completed, with comments reported apart', async () => {
    const messages: TSseMessage[] = [];
    const comments: string[] = [];
    for await (const m of readSse(`${base}/stream`, {
      headers: { 'last-event-id': '0-0.3' },
      onComment: (c) => comments.push(c),
    }))
      messages.push(m);
    expect(messages).toEqual([
      { id: '1-0.0', event: 'step', data: '{"step_id":"scrape"}' },
      { id: '1-0.1', event: 'message', data: 'plain' },
    ]);
    expect(comments).toEqual(['heartbeat']);
    expect(lastEventId).toBe('0-0.3');
  });

  it('throws an ApiError with the server message for a non-2xx answer', async () => {
    const read = async () => {
      for await (const _ of readSse(`${base}/missing`)) throw new Error('no message expected');
    };
    const error = await read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      '404: {"message":"Audit not found","code":"NOT_FOUND"}',
    );
    expect((error as ApiError).serverMessage).toBe('Audit not found');
  });
});
