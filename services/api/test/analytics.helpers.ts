import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import { ZUploadResult, type TMergedData } from '@aso/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TWorkerService } from '@aso/queue';
import type { TTestDatabase, TTestUser } from '@aso/testkit';
import { it as integrationIt } from '@aso/testkit/vitest';
import { parseWorkerEnv, startCsvMerge } from '@aso/csv-merge';
import { startApi } from './access.fixtures';

// Shared by the analytics*.int.test.ts files: the real gateway (inject) and the real csv-merge
// worker in-process, over the test file's own database and Redis prefix.

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Shared fixtures (`FIXTURES_DIR`, default `../shared/fixtures` from the repo root); read in place. */
export const FIXTURES_DIR = resolve(REPO_ROOT, process.env.FIXTURES_DIR ?? '../shared/fixtures');

/** Path of a sample App Store Connect export in `asc-analytics/`. */
export const ascExport = (name: string) => join(FIXTURES_DIR, 'asc-analytics', name);

/** The three sample export pairs (constructed samples; see fixtures/SOURCES.md) and what they hold. */
export const SAMPLES = [
  {
    key: 'habit-tracker-pro',
    conversion: 'constructed_conversion_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
    redownloads:
      'constructed_redownloads_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
    appName: 'Habit Tracker Pro',
    territory: 'United States',
    days: 92,
    fileName: 'habit-tracker-pro-united-states-merged.csv',
  },
  {
    key: 'calm-notes',
    conversion: 'constructed_conversion_calm-notes_united-kingdom_2025-07-20_2025-08-18.csv',
    redownloads: 'constructed_redownloads_calm-notes_united-kingdom_2025-07-20_2025-08-18.csv',
    appName: 'Calm Notes: Journal & Mood',
    territory: 'United Kingdom',
    days: 30,
    fileName: 'calm-notes-journal-mood-united-kingdom-merged.csv',
  },
  {
    key: 'tiny-budget',
    conversion: 'constructed-nopreamble_conversion_tiny-budget_germany_2025-03-01_2025-03-14.csv',
    redownloads: 'constructed-nopreamble_redownloads_tiny-budget_germany_2025-03-01_2025-03-14.csv',
    appName: null,
    territory: null,
    days: 14,
    fileName: 'dataset-merged.csv',
  },
] as const;
export type TSample = (typeof SAMPLES)[number];

/** An export as the test reads it itself with csv-parse: header row and rows of raw cell texts. */
export interface TRawExport {
  headers: string[];
  rows: Record<string, string>[];
}

/**
 * Reads a UTF-8 sample export with csv-parse, independently of the product's parser: the
 * header row is the first record with at least three cells, one of them exactly 'Date'.
 */
export function readExport(path: string): TRawExport {
  const records: string[][] = parse(readFileSync(path), {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
  });
  const at = records.findIndex((r) => r.length >= 3 && r.some((c) => c.trim() === 'Date'));
  if (at < 0) throw new Error(`${path}: no header row`);
  const headers = records[at]!.map((h) => h.trim());
  const rows = records
    .slice(at + 1)
    .map((cells) => Object.fromEntries(headers.map((h, i) => [h, (cells[i] ?? '').trim()])));
  return { headers, rows };
}

/** The test's own reading of a number cell: '1,234' -> 1234; '-' or '' -> null. */
export function cellNumber(text: string): number | null {
  if (text === '-' || text === '') return null;
  const n = Number(text.replace(/,/g, ''));
  if (Number.isNaN(n)) throw new Error(`not a number: ${text}`);
  return n;
}

/** 'M/D/YY' -> 'YYYY-MM-DD' (two-digit years < 50 are 20xx). */
export function isoDay(mdy: string): string {
  const [m, d, y] = mdy.split('/').map(Number) as [number, number, number];
  const year = y < 50 ? 2000 + y : y < 100 ? 1900 + y : y;
  return `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** One file part of a multipart body. */
export interface TFilePart {
  field: string;
  name: string;
  content: Buffer | string;
  type?: string;
}

/**
 * A multipart/form-data body built by the platform's own `FormData` encoder (the same one
 * browsers use), as bytes and the content type for `inject()`.
 */
export async function multipartBody(
  files: TFilePart[],
  fields: { name: string; value: string }[] = [],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const f of fields) form.append(f.name, f.value);
  for (const f of files) {
    const bytes = typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content;
    form.append(f.field, new Blob([new Uint8Array(bytes)], { type: f.type ?? 'text/csv' }), f.name);
  }
  const request = new Request('http://localhost/api/uploads', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

// The signed-in test user is the audit tests' (an access code, a user and a live session).

/** `POST /api/uploads` with these files (and optional text fields) as `user`. */
export async function upload(
  app: FastifyInstance,
  user: TTestUser | null,
  files: TFilePart[],
  fields: { name: string; value: string }[] = [],
): Promise<LightMyRequestResponse> {
  const body = await multipartBody(files, fields);
  return app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { ...body.headers, ...(user?.headers ?? {}) },
    payload: body.payload,
  });
}

/** The sample pair's two files as upload parts (`which` picks one or both). */
export function sampleParts(
  sample: TSample,
  which: 'both' | 'conversion' | 'redownloads' = 'both',
): TFilePart[] {
  const parts: TFilePart[] = [];
  if (which !== 'redownloads') {
    parts.push({
      field: 'conversionCSV',
      name: sample.conversion,
      content: readFileSync(ascExport(sample.conversion)),
    });
  }
  if (which !== 'conversion') {
    parts.push({
      field: 'redownloadsCSV',
      name: sample.redownloads,
      content: readFileSync(ascExport(sample.redownloads)),
    });
  }
  return parts;
}

/**
 * Uploads both files of `sample` as `user`, expects a 200, and returns the answer's
 * `mergedData` (checked against the contract).
 */
export async function uploadSample(
  app: FastifyInstance,
  user: TTestUser,
  sample: TSample,
): Promise<TMergedData> {
  const res = await upload(app, user, sampleParts(sample));
  expect(res.statusCode, res.body).toBe(200);
  return ZUploadResult.parse(res.json()).mergedData;
}

/** The gateway and (optionally) the csv-merge worker of one test file. */
export interface TAnalyticsEnv {
  app: FastifyInstance;
  worker: TWorkerService | null;
  close(): Promise<void>;
}

/** Starts the gateway (inject only) and, unless `worker` is false, the csv-merge worker. */
export async function startAnalyticsEnv(
  database: TTestDatabase,
  redis: { url: string; prefix: string },
  opts: { worker?: boolean; api?: Record<string, string> } = {},
): Promise<TAnalyticsEnv> {
  const worker =
    opts.worker === false
      ? null
      : await startCsvMerge(
          parseWorkerEnv({
            DATABASE_URL: database.url,
            REDIS_URL: redis.url,
            QUEUE_PREFIX: redis.prefix,
            LOG_LEVEL: 'silent',
            HEALTH_PORT: '0',
          }),
          { handleSignals: false },
        );
  const app = await startApi(database, redis, { UPLOAD_RATE_LIMIT_PER_MIN: '10000', ...opts.api });
  return {
    app,
    worker,
    async close() {
      await app.close();
      await worker?.close();
    },
  };
}

/** testkit's `it` with a file-scoped gateway + worker (`env`). */
export const it = integrationIt.extend<{ $file: { env: TAnalyticsEnv } }>({
  env: [
    async ({ database, redis }, use) => {
      const env = await startAnalyticsEnv(database, redis);
      await use(env);
      await env.close();
    },
    { scope: 'file' },
  ],
});
