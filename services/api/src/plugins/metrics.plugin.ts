import type { ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import { Gauge, Histogram } from 'prom-client';
import { createServiceMetrics, METRIC_PREFIX, QUEUES, type TServiceMetrics } from '@aso/queue';

/** Buckets of `aso_http_request_duration_seconds` (seconds); uploads wait for their merge. */
export const HTTP_DURATION_BUCKETS_S = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

/** `route` label of requests that matched no route (one value, so unknown paths add no series). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The gateway's metrics (docs/OPERATIONS.md), decorated as `app.metrics`. */
export interface TApiMetrics {
  /** Registry shared with the job and queue metrics of `@aso/queue`. */
  service: TServiceMetrics;
  /** `aso_http_request_duration_seconds{method,route,status_code}`; `route` is the route pattern. */
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** `aso_sse_open_streams`: progress streams open on this process. */
  sseOpen: Gauge;
  /**
   * Counts `res` in {@link ApiMetrics.sseOpen} until it closes (call once, right after the
   * stream's headers are written: `app.metrics.trackSse(reply.raw)`).
   */
  trackSse(res: ServerResponse): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: TApiMetrics;
  }
}

/**
 * Prometheus metrics of the gateway, served at `GET /metrics` (text format 0.0.4): HTTP
 * request durations by method, route pattern and status; open SSE streams; the depth of every
 * queue (waiting, active, delayed, failed); Node process metrics; all labelled
 * `service="api"`. Needs the infra plugin (`app.producers`). Hijacked replies (SSE streams)
 * are not timed: they last as long as the audit.
 *
 * `/metrics` has no authentication, like any Prometheus target: keep it off the public
 * internet at the proxy (docs/OPERATIONS.md#run-with-docker).
 */
export const metricsPlugin = fp(async (app) => {
  const service = createServiceMetrics({ service: 'api' });
  const httpDuration = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'Time from request to answer, per method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_DURATION_BUCKETS_S,
    registers: [service.registry],
  });
  const sseOpen = new Gauge({
    name: `${METRIC_PREFIX}sse_open_streams`,
    help: 'Server-Sent Events progress streams open on this process.',
    registers: [service.registry],
  });
  for (const name of Object.values(QUEUES)) {
    service.watchQueue(app.producers.queue(name));
  }

  const metrics: TApiMetrics = {
    service,
    httpDuration,
    sseOpen,
    trackSse(res) {
      // A client gone before its stream started fired 'close' already: never counted open.
      if (res.closed || res.destroyed) return;
      sseOpen.inc();
      res.once('close', () => sseOpen.dec());
    },
  };
  app.decorate('metrics', metrics);

  app.addHook('onResponse', (req, reply, done) => {
    httpDuration.observe(
      {
        method: req.method,
        route: req.routeOptions.url ?? UNMATCHED_ROUTE,
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.get(
    '/metrics',
    {
      // Scrapes every few seconds would drown the request log.
      logLevel: 'warn',
      schema: { hide: true },
    },
    async (_req, reply) => {
      const [type, body] = await service.render();
      return reply.type(type).header('cache-control', 'no-store').send(body);
    },
  );
});
