import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { createTestUser } from '@aso/testkit';
import { sql } from 'kysely';
import { buildKpiReport } from '@aso/analytics';
import { ZChartData, ZKpiReport } from '@aso/contracts';
import { findLiveDatasetRows } from '@aso/db';
import { expectError, startApi } from './access.fixtures';
import { it, SAMPLES, uploadSample } from './analytics.helpers';

// Chart-data and reports answer from datasets prepared once per process. The answers
// stay those of the route serializers (byte for byte), and owner and expiry are still checked
// on every request.

const [habit, calm] = SAMPLES;

/** What the zod serializer of a route answered: JSON of the schema's parse. */
const serialized = (schema: { parse(v: unknown): unknown }, value: unknown) =>
  JSON.stringify(schema.parse(value));

describe('chart-data from the prepared dataset', () => {
  it('answers the stored rows as before, with a strong ETag, 304 and compressed codings', async ({
    env,
    database,
  }) => {
    const { app } = env;
    const user = await createTestUser(database.db, 'chart-cache@example.com');
    const merged = await uploadSample(app, user, habit);
    const stored = await findLiveDatasetRows(database.db, merged.downloadId, user.userId);
    const expected = serialized(ZChartData, stored!.rows);
    expect(stored!.rows).toHaveLength(habit.days);
    const url = `/api/chart-data/${merged.downloadId}`;

    for (let read = 0; read < 2; read++) {
      const res = await app.inject({ url, headers: user.headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe(expected);
      expect(res.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'private, no-cache',
        vary: 'accept-encoding',
        'content-length': String(Buffer.byteLength(expected)),
      });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.etag).toMatch(new RegExp(`^"${merged.downloadId}\\.[\\w-]{22}"$`));
    }
    const { etag } = (await app.inject({ url, headers: user.headers })).headers;

    const notModified = await app.inject({
      url,
      headers: { ...user.headers, 'if-none-match': String(etag) },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    const changed = await app.inject({
      url,
      headers: { ...user.headers, 'if-none-match': `"${merged.downloadId}.other"` },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toBe(expected);
    // A weak comparison matches too; a forced reload (no-cache) gets the body again.
    const weak = await app.inject({
      url,
      headers: { ...user.headers, 'if-none-match': `"x", W/${String(etag)}` },
    });
    expect(weak.statusCode).toBe(304);
    const reload = await app.inject({
      url,
      headers: { ...user.headers, 'if-none-match': String(etag), 'cache-control': 'no-cache' },
    });
    expect(reload.statusCode).toBe(200);
    expect(reload.body).toBe(expected);

    for (const [accept, coding, decode] of [
      ['gzip, deflate', 'gzip', gunzipSync],
      ['gzip, deflate, br', 'br', brotliDecompressSync],
    ] as const) {
      const res = await app.inject({
        url,
        headers: { ...user.headers, 'accept-encoding': accept },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(expected) / 3);
      expect(decode(res.rawPayload).toString('utf8')).toBe(expected);
      expect(res.headers.etag).not.toBe(etag);
      const again = await app.inject({
        url,
        headers: {
          ...user.headers,
          'accept-encoding': accept,
          'if-none-match': String(res.headers.etag),
        },
      });
      expect(again.statusCode).toBe(304);
      // The identity tag does not validate a compressed answer.
      const other = await app.inject({
        url,
        headers: { ...user.headers, 'accept-encoding': accept, 'if-none-match': String(etag) },
      });
      expect(other.statusCode).toBe(200);
    }
  });
});

describe('reports from the prepared dataset', () => {
  it('answer byte for byte what the serializer answered for buildKpiReport of the rows', async ({
    env,
    database,
  }) => {
    const { app } = env;
    const user = await createTestUser(database.db, 'report-cache@example.com');
    const merged = await uploadSample(app, user, habit);
    const { rows } = (await findLiveDatasetRows(database.db, merged.downloadId, user.userId))!;
    const ranges = [
      undefined,
      { start: '2025-06-01', end: '2025-08-31' },
      { start: '2025-08-02', end: '2025-08-31' },
      { start: '2025-07-15', end: '2025-07-15' },
      { start: '2024-01-01', end: '2024-12-31' },
    ];
    for (const range of ranges) {
      const url = `/api/reports/${merged.downloadId}${range ? `?start=${range.start}&end=${range.end}` : ''}`;
      const expected = serialized(ZKpiReport, buildKpiReport(rows, range));
      // The first read computes and keeps the answer, the second reads it back.
      for (let read = 0; read < 2; read++) {
        const res = await app.inject({ url, headers: user.headers });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body, `${url} read ${read}`).toBe(expected);
      }
    }
    // The figures are real ones (the comparison above is not between two empty reports).
    const whole = ZKpiReport.parse(
      (
        await app.inject({
          url: `/api/reports/${merged.downloadId}?start=2025-06-01&end=2025-08-31`,
          headers: user.headers,
        })
      ).json(),
    );
    expect(whole.rowCounts).toMatchObject({ total: habit.days, current: habit.days });
    expect(whole.totals.current.totalDownloads).toBeGreaterThan(0);
    expect(whole.monthlyReport.months.map((m) => m.month)).toEqual([
      '2025-06',
      '2025-07',
      '2025-08',
    ]);
  });

  it('answers the same with the cache disabled (DATASET_CACHE_MB=0)', async ({
    env,
    database,
    redis,
  }) => {
    const user = await createTestUser(database.db, 'no-cache@example.com');
    const merged = await uploadSample(env.app, user, calm);
    const uncached = await startApi(database, redis, { DATASET_CACHE_MB: '0' });
    try {
      for (const url of [
        `/api/chart-data/${merged.downloadId}`,
        `/api/reports/${merged.downloadId}`,
        `/api/reports/${merged.downloadId}?start=2025-08-01&end=2025-08-18`,
      ]) {
        const cached = await env.app.inject({ url, headers: user.headers });
        for (let read = 0; read < 2; read++) {
          const res = await uncached.inject({ url, headers: user.headers });
          expect(res.statusCode, res.body).toBe(200);
          expect(res.body, url).toBe(cached.body);
          expect(res.headers.etag).toBe(cached.headers.etag);
        }
      }
    } finally {
      await uncached.close();
    }
  });
});

describe('owner and expiry are checked on every read of a cached dataset', () => {
  it('answers 404 to another user, and at once once the dataset expired or is gone', async ({
    env,
    database,
  }) => {
    const { app } = env;
    const owner = await createTestUser(database.db, 'cache-owner@example.com');
    const other = await createTestUser(database.db, 'cache-other@example.com');
    const merged = await uploadSample(app, owner, calm);
    const chartUrl = `/api/chart-data/${merged.downloadId}`;
    const urls = [
      chartUrl,
      `/api/reports/${merged.downloadId}`,
      `/api/reports/${merged.downloadId}?start=2025-07-20&end=2025-07-31`,
    ];
    // Cached by the owner's reads.
    for (const url of urls) {
      expect((await app.inject({ url, headers: owner.headers })).statusCode, url).toBe(200);
    }
    const { etag } = (await app.inject({ url: chartUrl, headers: owner.headers })).headers;
    for (const url of urls) {
      expectError(
        await app.inject({ url, headers: { ...other.headers, 'if-none-match': String(etag) } }),
        404,
        'Dataset not found or expired',
      );
      expectError(await app.inject({ url }), 401, /sign in/i);
    }

    await database.db
      .updateTable('datasets')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', merged.downloadId)
      .execute();
    for (const url of urls) {
      expectError(
        await app.inject({ url, headers: { ...owner.headers, 'if-none-match': String(etag) } }),
        404,
        'Dataset not found or expired',
      );
    }

    // Live again (a new expiry): answered again, the same bytes.
    await database.db
      .updateTable('datasets')
      .set({ expires_at: sql<Date>`now() + interval '1 day'` })
      .where('id', '=', merged.downloadId)
      .execute();
    const back = await app.inject({ url: chartUrl, headers: owner.headers });
    expect(back.statusCode).toBe(200);
    expect(back.headers.etag).toBe(etag);

    await database.db.deleteFrom('datasets').where('id', '=', merged.downloadId).execute();
    for (const url of urls) {
      expectError(
        await app.inject({ url, headers: owner.headers }),
        404,
        'Dataset not found or expired',
      );
    }
  });
});
