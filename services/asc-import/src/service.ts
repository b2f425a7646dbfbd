import type { Logger } from 'pino';
import { secretsKeyFrom } from '@aso/asc';
import { createDb, deferWhileDatabaseDown } from '@aso/db';
import { QUEUES, startWorkerService, type TWorkerService } from '@aso/queue';
import type { TAscImportEnv } from './env';
import { createAscImportHandler, createAscImportRoundHandler } from './import.handler';
import type { TWorkerDeps } from './worker.deps';

/**
 * Starts the App Store Connect importer: the `asc-import` queue (`CONCURRENCY` imports at
 * once) and the job scheduler that imports every app imported before again every
 * `ASC_IMPORT_INTERVAL` seconds (one scheduler id for all replicas).
 */
export async function startAscImport(
  env: TAscImportEnv,
  opts: { handleSignals?: boolean; log?: Logger } = {},
): Promise<TWorkerService> {
  return startWorkerService('asc-import', env, opts, async (ctx) => {
    const db = createDb(env.DATABASE_URL, { max: env.CONCURRENCY + 2, log: ctx.log });
    const deps: TWorkerDeps = {
      env,
      db,
      log: ctx.log,
      producers: ctx.producers,
      secretsKey: env.SECRETS_KEY ? secretsKeyFrom(env.SECRETS_KEY) : null,
    };
    ctx.worker(
      QUEUES.ascImport,
      {
        'asc-import': createAscImportHandler(deps),
        'asc-import-round': createAscImportRoundHandler(deps),
      },
      { deferOn: deferWhileDatabaseDown(ctx.log) },
    );
    await ctx.producers.scheduleEvery(
      'asc-import-daily',
      'asc-import-round',
      {},
      env.ASC_IMPORT_INTERVAL * 1000,
    );
    return { onClose: () => db.destroy() };
  });
}
