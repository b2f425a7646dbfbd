import { z } from 'zod';
import { parseEnv } from '@aso/contracts';
import { lockEnv, ZWorkerBaseEnv } from '@aso/queue';

/** Environment of the render worker (docs/product.md#configuration), parsed once at start. */
export const ZRenderEnv = ZWorkerBaseEnv.extend({
  // Rendering waits on Chromium (a separate process), so the event loop is free to renew the
  // lock every 5 s: a short lock hands a killed worker's render on within about 15 s.
  ...lockEnv({ lockDurationMs: 10_000, stalledIntervalMs: 5_000 }),
  /**
   * PDFs rendered at once by this process: each holds a Chromium page (about 100-200 MB), so
   * keep it small and scale with replicas.
   */
  CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Port of /healthz and /metrics; 0 picks a free port. */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9104),
  /** The system Chromium (Debian's `chromium` package). */
  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  /** Where the web app is served (the api); the worker opens its print pages there. */
  RENDER_APP_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:3000'),
  /** Longest one render may take, from opening the page to the stored PDF (ms). */
  RENDER_TIMEOUT_MS: z.coerce.number().int().min(5_000).default(60_000),
});
export type TRenderEnv = z.infer<typeof ZRenderEnv>;

/** Parses `source`; throws an Error naming each bad variable. */
export const parseRenderEnv = (source: Record<string, string | undefined>): TRenderEnv =>
  parseEnv(ZRenderEnv, source);

/** Reads the process environment. */
export const loadRenderEnv = (): TRenderEnv => parseRenderEnv(process.env);
