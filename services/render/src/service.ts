import type { Logger } from 'pino';
import { createDb, deferWhileDatabaseDown } from '@aso/db';
import { QUEUES, startWorkerService, type TWorkerService } from '@aso/queue';
import { BrowserPool, reapOrphanBrowsers } from './browser.pool';
import type { TRenderEnv } from './env';
import { createRenderHandler } from './render.handler';

/**
 * Starts the render worker: the `render` queue (`CONCURRENCY` PDFs at once, each in its own
 * context of one shared Chromium, launched at start), closing Chromium after the in-flight
 * renders on shutdown.
 */
export async function startRender(
  env: TRenderEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<TWorkerService> {
  return startWorkerService('render', env, opts, async (ctx) => {
    const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2, log: ctx.log });
    // Browsers left behind by a killed predecessor are ended before this one starts its own.
    const reaped = await reapOrphanBrowsers();
    if (reaped.length > 0)
      ctx.log.warn({ pids: reaped }, 'killed chromium left by a dead render worker');
    const browsers = new BrowserPool(env.CHROMIUM_PATH);
    // Launched now, not by the first render, which would wait a second or more for it.
    browsers.get().catch((err: unknown) => ctx.log.warn({ err }, 'chromium did not start yet'));
    const deferOn = deferWhileDatabaseDown(ctx.log);
    ctx.worker(
      QUEUES.render,
      {
        'render-pdf': createRenderHandler({
          env,
          db,
          log: ctx.log,
          browsers,
          redis: ctx.redis,
          producers: ctx.producers,
          isDeferred: deferOn.test,
        }),
      },
      { deferOn },
    );
    return {
      onClose: async () => {
        await browsers.close();
        await db.destroy();
      },
    };
  });
}
