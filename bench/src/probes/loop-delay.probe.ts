/**
 * Preloaded into the gateway process by the benchmark (`node --import tsx --import <this>`):
 * measures the process's own event-loop delay with `monitorEventLoopDelay` (10 ms resolution)
 * and serves it on `127.0.0.1:$BENCH_PROBE_PORT`, so the gateway's code stays untouched:
 * - `GET /reset`: starts a new measurement window (204);
 * - `GET /read`: the window so far as JSON `{ p50, p90, p99, max, mean }` in ms and `count`;
 * - `GET /profile/start`, `GET /profile/stop`: a V8 CPU profile of exactly that window (the
 *   inspector's Profiler), answered by `stop` as `.cpuprofile` JSON;
 * - `GET /memory`: where the process's memory is, in bytes: `process.memoryUsage()` (rss,
 *   heapTotal, heapUsed, external, arrayBuffers) and the size and use of each V8 heap space;
 * - `GET /heap-snapshot?file=<path>`: writes a V8 heap snapshot to that path (204);
 * - `GET /gc`: two full collections (`gc()`, exposed through `v8.setFlagsFromString`), then the
 *   `/memory` answer: what the process holds once the garbage is gone.
 * The server is unref'd, so it never keeps the gateway alive.
 */
import { createServer } from 'node:http';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { collectGarbage } from '../harness/gc';

const port = Number(process.env.BENCH_PROBE_PORT);
if (Number.isInteger(port) && port > 0) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns: number) => ns / 1e6;
  let session: Session | null = null;
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => {
      session!.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result)));
    });

  const memory = () => ({
    ...process.memoryUsage(),
    spaces: Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [
        s.space_name,
        { size: s.space_size, used: s.space_used_size },
      ]),
    ),
  });

  const server = createServer((req, res) => {
    const fail = (err: unknown) => res.writeHead(500).end(String(err));
    if (req.url === '/reset') {
      histogram.reset();
      res.writeHead(204).end();
      return;
    }
    if (req.url === '/read') {
      const body = {
        p50: ms(histogram.percentile(50)),
        p90: ms(histogram.percentile(90)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        mean: ms(histogram.mean),
        count: histogram.count,
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    if (req.url === '/memory' || req.url === '/gc') {
      // The second collection also frees what the first one's finalizers released.
      if (req.url === '/gc') for (let i = 0; i < 2; i++) collectGarbage();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(memory()));
      return;
    }
    if (req.url?.startsWith('/heap-snapshot?')) {
      const file = new URL(req.url, 'http://probe').searchParams.get('file');
      if (!file) {
        res.writeHead(400).end('file is required');
        return;
      }
      writeHeapSnapshot(file);
      res.writeHead(204).end();
      return;
    }
    if (req.url === '/profile/start') {
      session ??= new Session();
      session.connect();
      post('Profiler.enable')
        .then(() => post('Profiler.setSamplingInterval', { interval: 1000 }))
        .then(() => post('Profiler.start'))
        .then(() => res.writeHead(204).end(), fail);
      return;
    }
    if (req.url === '/profile/stop' && session) {
      post('Profiler.stop').then((result) => {
        session!.disconnect();
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify((result as { profile: unknown }).profile));
      }, fail);
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(port, '127.0.0.1');
  server.unref();
}
