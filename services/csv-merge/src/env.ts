import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseEnv } from '@aso/contracts';
import { lockEnv, ZWorkerBaseEnv } from '@aso/queue';
import { MAX_EXPORT_COLUMNS, MAX_EXPORT_ROWS } from './merge/export-limits';

/**
 * Environment of the csv-merge worker (docs/product.md#configuration), parsed once at start.
 */
export const ZWorkerEnv = ZWorkerBaseEnv.extend({
  /**
   * A merge pauses to renew its lock while it parses (see job-pause.ts); a killed merge runs
   * again within about 20 s, well inside the gateway's wait for it.
   */
  ...lockEnv({ lockDurationMs: 15_000, stalledIntervalMs: 5_000 }),
  /**
   * Jobs processed at once by this process (docs/BENCHMARKS.md): 4, so the parse threads have
   * the next files while other merges read their uploads or store their rows (ten real-size
   * merges at once finished sooner than with 2). Each large merge holds its parsed rows until
   * stored: a small machine expecting several 20 MB uploads at once can lower it.
   */
  CONCURRENCY: z.coerce.number().int().min(1).max(200).default(4),
  /** Port of /healthz and /metrics; 0 picks a free port. */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9103),
  /**
   * Parse threads this process keeps running (docs/BENCHMARKS.md): a merge parses its two
   * files there, at the same time, so concurrent merges use every core and none pays for
   * starting a thread (a merge of at most 1 MB alone in the process parses on the worker's
   * thread). 0: none, files are parsed one after the other on the worker's thread.
   * Default: the cores (at least 1).
   */
  PARSE_THREADS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    .default(Math.max(1, availableParallelism()))
    // The documented default, the same on every machine (docs/CONFIGURATION.md).
    .meta({ docDefault: 'the cores (at least 1)' }),
  /** Days a merged dataset (and its uploads) is kept. */
  DATASET_TTL_DAYS: z.coerce.number().min(0).default(30),
  /**
   * Most data rows of one export (see `MAX_EXPORT_ROWS`: a daily export of ten years has
   * 3,653). Checked while the file streams in; a larger file is refused with a 400 naming it.
   */
  MERGE_MAX_ROWS: z.coerce.number().int().min(1).default(MAX_EXPORT_ROWS),
  /** Most columns of one export's header row (see `MAX_EXPORT_COLUMNS`). */
  MERGE_MAX_COLUMNS: z.coerce.number().int().min(2).default(MAX_EXPORT_COLUMNS),
  /**
   * Longest a merge may run (ms): past it the merge is stopped and the upload refused with a
   * 400 naming the limit. Two ten-year exports merge in well under a second; the default 20 s
   * keeps one hostile file from holding a merge slot, while a merge run again after its worker
   * died still ends within the gateway's `UPLOAD_WAIT_MS`.
   */
  MERGE_TIME_BUDGET_MS: z.coerce.number().int().min(100).default(20_000),
});
export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;

/** Parses `source`; throws an Error naming each bad variable. */
export const parseWorkerEnv = (source: Record<string, string | undefined>): TWorkerEnv =>
  parseEnv(ZWorkerEnv, source);

/** Reads the process environment. */
export const loadWorkerEnv = (): TWorkerEnv => parseWorkerEnv(process.env);
