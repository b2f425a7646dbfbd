/**
 * A local stand-in of the gateway for component tests, over real HTTP on the page's own origin
 * (happy-dom's location is moved to it, so the screens' relative `/api/...` calls reach it). It
 * records each request (method, path, body text) and answers the answer set for the longest
 * matching path prefix, else the last answer set for every path.
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
export interface TApiStandIn {
  received: TReceived[];
  /** Sets the answer of the following requests (JSON body). */
  answer: (status: number, body: unknown) => void;
  /**
   * Sets the answer of the following `method` requests whose path (with its query) starts with
   * `prefix`, over {@link answer}'s.
   */
  answerFor: (method: string, prefix: string, status: number, body: unknown) => void;
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
export async function startApiStandIn(): Promise<TApiStandIn> {
  const received: TReceived[] = [];
  let next: { status: number; body: unknown } = { status: 500, body: { message: 'no answer' } };
  const routes = new Map<string, { status: number; body: unknown }>();
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const method = req.method ?? '';
      const url = req.url ?? '';
      received.push({ method, url, body });
      const route = [...routes.keys()]
        .filter(
          (key) => key.startsWith(`${method} `) && url.startsWith(key.slice(method.length + 1)),
        )
        .sort((a, b) => b.length - a.length)[0];
      const answer = route ? routes.get(route)! : next;
      if (answer.status === 204) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
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
    answerFor: (method, prefix, status, body) => {
      routes.set(`${method} ${prefix}`, { status, body });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
