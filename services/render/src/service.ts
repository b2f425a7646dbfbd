import type { Logger } from 'pino';
import { createDb, deferWhileDatabaseDown } from '@aso/db';
import { QUEUES, startWorkerService, type WorkerService } from '@aso/queue';
import { BrowserPool } from './browser.pool';
import type { TRenderEnv } from './env';
import { createRenderHandler } from './render.handler';

/**
 * Starts the render worker: the `render` queue (`CONCURRENCY` PDFs at once, each in its own
 * context of one shared Chromium), closing Chromium after the in-flight renders on shutdown.
 */
export async function startRender(
  env: TRenderEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<WorkerService> {
  return startWorkerService('render', env, opts, async (ctx) => {
    const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2, log: ctx.log });
    const browsers = new BrowserPool(env.CHROMIUM_PATH);
    ctx.worker(
      QUEUES.render,
      { 'render-pdf': createRenderHandler({ env, db, log: ctx.log, browsers, redis: ctx.redis }) },
      { deferOn: deferWhileDatabaseDown(ctx.log) },
    );
    return {
      onClose: async () => {
        await browsers.close();
        await db.destroy();
      },
    };
  });
}
