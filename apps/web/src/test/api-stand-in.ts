/**
 * A local stand-in of the gateway for component tests, over real HTTP on the page's own origin
 * (happy-dom's location is moved to it, so the screens' relative `/api/...` calls reach it). It
 * records each request (method, path, body text) and answers the queued answer.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Window as HappyWindow } from 'happy-dom';

/** One request the stand-in received. */
export interface TReceived {
  method: string;
  url: string;
  body: string;
}

/** The running stand-in. */
export interface ApiStandIn {
  received: TReceived[];
  /** Sets the answer of the following requests (JSON body). */
  answer: (status: number, body: unknown) => void;
  close: () => Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** Starts the stand-in on a free loopback port and points the page's location at it. */
export async function startApiStandIn(): Promise<ApiStandIn> {
  const received: TReceived[] = [];
  let next: { status: number; body: unknown } = { status: 500, body: { message: 'no answer' } };
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      received.push({ method: req.method ?? '', url: req.url ?? '', body });
      res.writeHead(next.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (window as unknown as HappyWindow).happyDOM.setURL(`http://127.0.0.1:${port}/`);
  return {
    received,
    answer: (status, body) => {
      next = { status, body };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
