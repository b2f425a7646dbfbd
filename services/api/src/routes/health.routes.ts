import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Resolves or rejects like `p`, or rejects after `ms`; the timer never outlives the race. */
async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /healthz`: the process is up. `GET /readyz`: PostgreSQL and Redis both answer within
 * 2 s; otherwise 503 with a message naming the one(s) that do not.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));

  app.get('/readyz', { logLevel: 'warn' }, async (_req, reply) => {
    const check = async (fn: () => Promise<unknown>) => {
      try {
        await withTimeout(fn(), 2_000);
        return 'ok' as const;
      } catch (err) {
        return `down: ${err instanceof Error ? err.message : String(err)}`;
      }
    };
    const [postgres, redis] = await Promise.all([
      check(() => sql`select 1`.execute(app.db)),
      check(() => app.redis.ping()),
    ]);
    const down = [postgres === 'ok' ? null : 'PostgreSQL', redis === 'ok' ? null : 'Redis'].filter(
      Boolean,
    );
    if (down.length === 0) return { status: 'ready', checks: { postgres, redis } };
    return reply.code(503).send({
      message: `${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} not answering`,
      code: 'SERVICE_UNAVAILABLE',
      checks: { postgres, redis },
    });
  });
};
