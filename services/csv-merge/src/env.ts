import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseEnv } from '@aso/contracts';
import { lockEnv, ZWorkerBaseEnv } from '@aso/queue';

/**
 * Environment of the csv-merge worker (DESIGN section 7), parsed once at start.
 */
export const ZWorkerEnv = ZWorkerBaseEnv.extend({
  /**
   * A merge pauses to renew its lock while it parses (see job-pause.ts); a killed merge runs
   * again within about 20 s, well inside the gateway's wait for it.
   */
  ...lockEnv({ lockDurationMs: 15_000, stalledIntervalMs: 5_000 }),
  /** Jobs processed at once by this process. */
  CONCURRENCY: z.coerce.number().int().min(1).max(200).default(2),
  /** Port of /healthz and /metrics; 0 picks a free port. */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9103),
  /**
   * Parse threads this process runs at once (docs/BENCHMARKS.md): a merge of two large exports
   * parses them at the same time, the larger in a worker thread, while one is free (about 40 %
   * faster on 2 cores for about 60 MB more peak memory each); otherwise one after the other. 0:
   * never. Default: the cores less one (at least 1), so concurrent merges do not add threads that
   * have no core to run on.
   */
  PARSE_THREADS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    .default(Math.max(1, availableParallelism() - 1)),
  /** Days a merged dataset (and its uploads) is kept. */
  DATASET_TTL_DAYS: z.coerce.number().min(0).default(30),
});
export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;

/** Parses `source`; throws an Error naming each bad variable. */
export const parseWorkerEnv = (source: Record<string, string | undefined>): TWorkerEnv =>
  parseEnv(ZWorkerEnv, source);

/** Reads the process environment. */
export const loadWorkerEnv = (): TWorkerEnv => parseWorkerEnv(process.env);
