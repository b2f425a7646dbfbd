import { describe, expect, vi } from 'vitest';
import { QUEUES } from '@aso/queue';
import { createTestUser, openTestQueues } from '@aso/testkit';
import { ONE_MERGE_MESSAGE } from '../src/services/upload-merge.service';
import { parse as parseContentDisposition } from 'content-disposition';
import { parse } from 'csv-parse/sync';
import { buildKpiReport } from '@aso/analytics';
import {
  ZChartData,
  ZKpiReport,
  ZUploadResult,
  type TChartDataRow,
  type TMergedData,
} from '@aso/contracts';
import { DATASET_CHUNK_ROWS } from '@aso/db';
import { expectError, startApi } from './access.fixtures';
import {
  ascExport,
  cellNumber,
  isoDay,
  it,
  readExport,
  sampleParts,
  SAMPLES,
  upload,
} from './analytics.helpers';

const CSV_MAX_BYTES = 20 * 1024 * 1024;

/** The merged rows the test expects, computed from its own csv-parse reading of both files. */
function expectedRows(
  sample: (typeof SAMPLES)[number],
  which: 'both' | 'conversion' | 'redownloads' = 'both',
) {
  const conv = readExport(ascExport(sample.conversion));
  const redl = readExport(ascExport(sample.redownloads));
  const files = which === 'both' ? [conv, redl] : which === 'conversion' ? [conv] : [redl];
  const headers = ['Date'];
  for (const f of files) for (const h of f.headers) if (!headers.includes(h)) headers.push(h);
  headers.push('Territory');
  const byDate = new Map<string, TChartDataRow>();
  for (const f of files) {
    for (const raw of f.rows) {
      const row = byDate.get(raw.Date!) ?? { Date: raw.Date! };
      for (const [h, text] of Object.entries(raw))
        if (h !== 'Date' && !(h in row)) row[h] = cellNumber(text);
      row.Territory = sample.territory;
      byDate.set(raw.Date!, row);
    }
  }
  const rows = [...byDate.values()].sort((a, b) =>
    isoDay(String(a.Date)).localeCompare(isoDay(String(b.Date))),
  );
  return { headers, rows, conv, redl };
}

describe.each(SAMPLES)('upload of the $key sample exports', (sample) => {
  it('merges both files: mergedData, chart data, download and reports equal the files', async ({
    env,
    database,
  }) => {
    const { app } = env;
    const user = await createTestUser(database.db, `${sample.key}@example.com`);
    const res = await upload(app, user, sampleParts(sample));
    expect(res.statusCode, res.body).toBe(200);
    const { mergedData } = ZUploadResult.parse(res.json());
    const expected = expectedRows(sample);

    expect(mergedData.appName).toBe(sample.appName);
    expect(mergedData.territory).toBe(sample.territory);
    expect(mergedData.totalRows).toBe(sample.days);
    expect(expected.rows).toHaveLength(sample.days);
    expect(mergedData.headers).toEqual(expected.headers);
    expect(mergedData.headers[0]).toBe('Date');
    expect(mergedData.headers.at(-1)).toBe('Territory');
    expect(mergedData.preview).toEqual(expected.rows.slice(0, 10));

    // The dataset and its uploads are stored, linked and expire in DATASET_TTL_DAYS (30).
    const stored = await database.db
      .selectFrom('datasets')
      .select(['user_id', 'total_rows', 'date_start', 'date_end', 'created_at', 'expires_at'])
      .where('id', '=', mergedData.downloadId)
      .executeTakeFirstOrThrow();
    expect(stored.user_id).toBe(user.userId);
    expect(stored.total_rows).toBe(sample.days);
    expect(stored.date_start).toBe(isoDay(String(expected.rows[0]!.Date)));
    expect(stored.date_end).toBe(isoDay(String(expected.rows.at(-1)!.Date)));
    expect(stored.expires_at.getTime() - stored.created_at.getTime()).toBeCloseTo(
      30 * 86_400_000,
      -4,
    );
    const uploads = await database.db
      .selectFrom('uploads')
      .select(['field', 'filename', 'size_bytes'])
      .where('dataset_id', '=', mergedData.downloadId)
      .orderBy('field')
      .execute();
    expect(uploads).toEqual([
      {
        field: 'conversionCSV',
        filename: sample.conversion,
        size_bytes: sampleParts(sample)[0]!.content.length,
      },
      {
        field: 'redownloadsCSV',
        filename: sample.redownloads,
        size_bytes: sampleParts(sample)[1]!.content.length,
      },
    ]);

    // Chart data: every row, numbers as numbers, '-' as null.
    const chart = await app.inject({
      url: `/api/chart-data/${mergedData.downloadId}`,
      headers: user.headers,
    });
    expect(chart.statusCode, chart.body).toBe(200);
    const rows = ZChartData.parse(chart.json());
    expect(rows).toEqual(expected.rows);
    for (const row of rows) {
      for (const h of mergedData.headers) {
        if (h === 'Date' || h === 'Territory') continue;
        expect(row[h] === null || typeof row[h] === 'number', `${String(row.Date)} ${h}`).toBe(
          true,
        );
      }
    }

    // Download: the processed CSV round-trips through csv-parse.
    const dl = await app.inject({
      url: `/api/download-merged/${mergedData.downloadId}`,
      headers: user.headers,
    });
    expect(dl.statusCode, dl.body).toBe(200);
    expect(dl.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(parseContentDisposition(String(dl.headers['content-disposition']))).toEqual({
      type: 'attachment',
      parameters: { filename: sample.fileName },
    });
    const records = parse(dl.body);
    expect(records[0]).toEqual(mergedData.headers);
    expect(records.slice(1)).toEqual(
      expected.rows.map((r) =>
        mergedData.headers.map((h) => {
          const v = r[h];
          return v === null || v === undefined ? '' : String(v);
        }),
      ),
    );

    // Reports: the figures of a range equal buildKpiReport over the same rows, and an
    // independent sum of the export's 'Total Downloads' / 'Total Impressions' columns.
    const days = expected.rows.map((r) => isoDay(String(r.Date)));
    const start = days[3]!;
    const end = days[Math.min(days.length - 1, 3 + 20)]!;
    const report = await app.inject({
      url: `/api/reports/${mergedData.downloadId}?start=${start}&end=${end}`,
      headers: user.headers,
    });
    expect(report.statusCode, report.body).toBe(200);
    const kpi = ZKpiReport.parse(report.json());
    expect(kpi).toEqual(buildKpiReport(expected.rows, { start, end }));
    const inRange = expected.conv.rows.filter(
      (r) => isoDay(r.Date!) >= start && isoDay(r.Date!) <= end,
    );
    const sum = (h: string) => inRange.reduce((s, r) => s + (cellNumber(r[h]!) ?? 0), 0);
    expect(kpi.range).toEqual({ start, end, days: inRange.length });
    expect(kpi.totals.current.totalDownloads).toBe(sum('Total Downloads'));
    expect(kpi.totals.current.impressions).toBe(sum('Total Impressions'));
    expect(kpi.totals.current.firstTimeDownloads).toBe(sum('Total First-Time Downloads'));

    // Without a range: the dataset's last 30 days, or its whole span when shorter.
    const byDefault = await app.inject({
      url: `/api/reports/${mergedData.downloadId}`,
      headers: user.headers,
    });
    expect(byDefault.statusCode, byDefault.body).toBe(200);
    const defaultKpi = ZKpiReport.parse(byDefault.json());
    expect(defaultKpi).toEqual(buildKpiReport(expected.rows));
    expect(defaultKpi.range.end).toBe(days.at(-1));
    expect(defaultKpi.range.start).toBe(days[Math.max(0, days.length - 30)]);
  });

  it('works with one file alone', async ({ env, database }) => {
    const user = await createTestUser(database.db, `${sample.key}-one@example.com`);
    for (const which of ['conversion', 'redownloads'] as const) {
      const res = await upload(env.app, user, sampleParts(sample, which));
      expect(res.statusCode, res.body).toBe(200);
      const { mergedData } = ZUploadResult.parse(res.json());
      const expected = expectedRows(sample, which);
      expect(mergedData).toEqual<TMergedData>({
        headers: expected.headers,
        preview: expected.rows.slice(0, 10),
        totalRows: sample.days,
        downloadId: mergedData.downloadId,
        appName: sample.appName,
        territory: sample.territory,
        swapped: false,
        notices: [],
      });
      const chart = await env.app.inject({
        url: `/api/chart-data/${mergedData.downloadId}`,
        headers: user.headers,
      });
      expect(ZChartData.parse(chart.json())).toEqual(expected.rows);
    }
  });
});

describe('a dataset of many days (stored in chunks)', () => {
  it('answers the upload, chart data, download and reports from every chunk', async ({
    env,
    database,
  }) => {
    const user = await createTestUser(database.db, 'many-days@example.com');
    // Constructed: 5,000 days (several chunks of stored rows); the conversion file has values
    // on the first 4,000 only ('-' after them).
    const day = (i: number) => new Date(Date.UTC(2010, 0, 1 + i));
    const text = (i: number) =>
      `${day(i).getUTCMonth() + 1}/${day(i).getUTCDate()}/${day(i).getUTCFullYear()}`;
    const conversion = [
      '"Name","Many Days"',
      '"Territory","Chile"',
      '',
      '"Date","Total Downloads","Total Impressions"',
      ...Array.from({ length: 5_000 }, (_, i) =>
        i < 4_000
          ? `${text(i)},${i % 50},"${1 + (i % 9)},${String(i % 1000).padStart(3, '0')}"`
          : `${text(i)},-,-`,
      ),
    ].join('\r\n');
    const redownloads = [
      '"Date","Total Redownloads","Web Referrer Redownloads"',
      ...Array.from({ length: 5_000 }, (_, i) => `${text(i)},${i % 13},-`),
    ].join('\r\n');
    const res = await upload(env.app, user, [
      { field: 'conversionCSV', name: 'many-conversion.csv', content: conversion },
      { field: 'redownloadsCSV', name: 'many-redownloads.csv', content: redownloads },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const { mergedData } = ZUploadResult.parse(res.json());
    const headers = [
      'Date',
      'Total Downloads',
      'Total Impressions',
      'Total Redownloads',
      'Web Referrer Redownloads',
      'Territory',
    ];
    const expected: TChartDataRow[] = Array.from({ length: 5_000 }, (_, i) => ({
      Date: text(i),
      'Total Downloads': i < 4_000 ? i % 50 : null,
      'Total Impressions': i < 4_000 ? (1 + (i % 9)) * 1000 + (i % 1000) : null,
      'Total Redownloads': i % 13,
      'Web Referrer Redownloads': null,
      Territory: 'Chile',
    }));
    expect(mergedData).toEqual<TMergedData>({
      headers,
      preview: expected.slice(0, 10),
      totalRows: 5_000,
      downloadId: mergedData.downloadId,
      appName: 'Many Days',
      territory: 'Chile',
      swapped: false,
      notices: [],
    });
    const chunks = await database.db
      .selectFrom('dataset_chunks')
      .select(['seq', 'row_count', 'first_day', 'last_day'])
      .where('dataset_id', '=', mergedData.downloadId)
      .orderBy('seq')
      .execute();
    const size = DATASET_CHUNK_ROWS;
    expect(chunks.map((c) => c.row_count)).toEqual(
      Array.from({ length: Math.ceil(5_000 / size) }, (_, k) => Math.min(size, 5_000 - k * size)),
    );
    expect(chunks[1]).toMatchObject({
      first_day: day(size).toISOString().slice(0, 10),
      last_day: day(2 * size - 1)
        .toISOString()
        .slice(0, 10),
    });

    const chart = await env.app.inject({
      url: `/api/chart-data/${mergedData.downloadId}`,
      headers: user.headers,
    });
    expect(ZChartData.parse(chart.json())).toEqual(expected);

    const dl = await env.app.inject({
      url: `/api/download-merged/${mergedData.downloadId}`,
      headers: user.headers,
    });
    expect(dl.statusCode).toBe(200);
    expect(
      parseContentDisposition(String(dl.headers['content-disposition'])).parameters.filename,
    ).toBe('many-days-chile-merged.csv');
    expect(parse(dl.body)).toEqual([
      headers,
      ...expected.map((r) => headers.map((h) => (r[h] === null ? '' : String(r[h])))),
    ]);

    const report = await env.app.inject({
      url: `/api/reports/${mergedData.downloadId}?start=2020-01-01&end=2020-01-31`,
      headers: user.headers,
    });
    expect(report.statusCode, report.body).toBe(200);
    expect(ZKpiReport.parse(report.json())).toEqual(
      buildKpiReport(expected, { start: '2020-01-01', end: '2020-01-31' }),
    );
  });
});

describe('upload refusals', () => {
  const calm = SAMPLES[1];

  it('escapes formula cells in the download; chart data keeps the text', async ({
    env,
    database,
  }) => {
    const user = await createTestUser(database.db, 'formula@example.com');
    // Constructed for this test (not a real export): text cells a spreadsheet would run.
    const constructed = [
      '"Name","Formula Test App"',
      '"Territory","Canada"',
      '',
      'Date,Total Downloads,Total Impressions,Note',
      '7/1/25,10,100,"=HYPERLINK(""http://example.invalid"",""click"")"',
      '7/2/25,-12,200,+SUM(A1:A2)',
      '7/3/25,5,300,@cmd',
      '7/4/25,6,400,-2+3',
      '7/5/25,7,500,plain note',
    ].join('\n');
    const res = await upload(env.app, user, [
      { field: 'conversionCSV', name: 'constructed-formulas.csv', content: constructed },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const { mergedData } = ZUploadResult.parse(res.json());
    expect(mergedData.appName).toBe('Formula Test App');
    expect(mergedData.territory).toBe('Canada');

    const chart = ZChartData.parse(
      (
        await env.app.inject({
          url: `/api/chart-data/${mergedData.downloadId}`,
          headers: user.headers,
        })
      ).json(),
    );
    expect(chart.map((r) => r.Note)).toEqual([
      '=HYPERLINK("http://example.invalid","click")',
      '+SUM(A1:A2)',
      '@cmd',
      '-2+3',
      'plain note',
    ]);
    expect(chart[1]!['Total Downloads']).toBe(-12);

    const dl = await env.app.inject({
      url: `/api/download-merged/${mergedData.downloadId}`,
      headers: user.headers,
    });
    expect(dl.statusCode).toBe(200);
    expect(
      parseContentDisposition(String(dl.headers['content-disposition'])).parameters.filename,
    ).toBe('formula-test-app-canada-merged.csv');
    const records = parse(dl.body);
    expect(records[0]).toEqual([
      'Date',
      'Total Downloads',
      'Total Impressions',
      'Note',
      'Territory',
    ]);
    expect(records.slice(1).map((r) => r[3])).toEqual([
      `'=HYPERLINK("http://example.invalid","click")`,
      "'+SUM(A1:A2)",
      "'@cmd",
      "'-2+3",
      'plain note',
    ]);
    // A bare negative number is a number, not a formula.
    expect(records[2]![1]).toBe('-12');
  });

  it('refuses a file above 20 MB with 413 and accepts exactly 20 MB', async ({ env, database }) => {
    const user = await createTestUser(database.db, 'big@example.com');
    // Constructed: CSV-looking text without a Date column, padded to the exact size.
    const filler = (bytes: number) => {
      const line = 'a,b,c\n';
      const buf = Buffer.alloc(bytes, line);
      return buf;
    };
    const over = await upload(env.app, user, [
      { field: 'conversionCSV', name: 'big.csv', content: filler(CSV_MAX_BYTES + 1) },
    ]);
    expect(expectError(over, 413, 'File size must be less than 20MB').code).toBe(
      'PAYLOAD_TOO_LARGE',
    );

    // The second file is over the limit: the first one, already stored, is removed again.
    const second = await upload(env.app, user, [
      ...sampleParts(calm, 'conversion'),
      { field: 'redownloadsCSV', name: 'big.csv', content: filler(CSV_MAX_BYTES + 1) },
    ]);
    expectError(second, 413, 'File size must be less than 20MB');
    const stored = await database.db
      .selectFrom('uploads')
      .select('id')
      .where('user_id', '=', user.userId)
      .execute();
    expect(stored).toEqual([]);

    // Exactly 20 MB passes the size check and reaches the parser, which names what is missing.
    const exact = await upload(env.app, user, [
      { field: 'conversionCSV', name: 'exact.csv', content: filler(CSV_MAX_BYTES) },
    ]);
    expectError(
      exact,
      400,
      /^Conversion export: no header row with a Date column found in the first 20 lines/,
    );
  });

  it('refuses names, fields and files that are not two CSV exports, naming them', async ({
    env,
    database,
  }) => {
    const user = await createTestUser(database.db, 'fields@example.com');
    const csv = sampleParts(calm, 'conversion')[0]!.content;
    const cases: [
      string,
      Parameters<typeof upload>[2],
      Parameters<typeof upload>[3],
      number,
      string | RegExp,
    ][] = [
      [
        'a .txt file',
        [{ field: 'conversionCSV', name: 'export.txt', content: csv }],
        [],
        400,
        'Only CSV files are accepted',
      ],
      [
        'a name without extension',
        [{ field: 'redownloadsCSV', name: 'csv', content: csv }],
        [],
        400,
        'Only CSV files are accepted',
      ],
      [
        'an unknown file field',
        [{ field: 'file', name: 'a.csv', content: csv }],
        [],
        400,
        /"file"/,
      ],
      [
        'a text field',
        [{ field: 'conversionCSV', name: 'a.csv', content: csv }],
        [{ name: 'note', value: 'x' }],
        400,
        /"note"/,
      ],
      [
        'a field sent twice',
        [
          { field: 'conversionCSV', name: 'a.csv', content: csv },
          { field: 'conversionCSV', name: 'b.csv', content: csv },
        ],
        [],
        400,
        /^Conversion export was sent more than once/,
      ],
      [
        'a third file',
        [
          { field: 'conversionCSV', name: 'a.csv', content: csv },
          { field: 'redownloadsCSV', name: 'b.csv', content: csv },
          { field: 'extraCSV', name: 'c.csv', content: csv },
        ],
        [],
        400,
        /"extraCSV"/,
      ],
      ['no file', [], [], 400, /^No file received/],
    ];
    for (const [what, files, fields, status, message] of cases) {
      const res = await upload(env.app, user, files, fields);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      expectError(res, status, message);
    }
    // Not multipart at all, and no session.
    expectError(
      await env.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: user.headers,
        payload: { conversionCSV: 'x' },
      }),
      400,
      /not multipart\/form-data/,
    );
    expectError(await upload(env.app, null, sampleParts(calm)), 401, /sign in/i);
    // An upper-case extension is a CSV name.
    const upper = await upload(env.app, user, [
      { field: 'conversionCSV', name: 'EXPORT.CSV', content: csv },
    ]);
    expect(upper.statusCode, upper.body).toBe(200);
    // Nothing of the refused requests was kept.
    const kept = await database.db
      .selectFrom('uploads')
      .select('filename')
      .where('user_id', '=', user.userId)
      .execute();
    expect(kept).toEqual([{ filename: 'EXPORT.CSV' }]);
  });

  it('answers 400 with the parser message for a binary file and a CSV without a date column', async ({
    env,
    database,
  }) => {
    const user = await createTestUser(database.db, 'bad@example.com');
    // Constructed: PNG signature and header bytes followed by binary noise, named .csv.
    const png = Buffer.concat([
      Buffer.from([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
      ]),
      Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 97 + 13) % 256)),
    ]);
    const binary = await upload(env.app, user, [
      { field: 'conversionCSV', name: 'chart.csv', content: png },
    ]);
    const binaryError = expectError(binary, 400, /^Conversion export: the file is binary/);
    expect(binaryError.field).toBe('conversionCSV');
    expect(binaryError.code).toBe('BAD_REQUEST');

    // Constructed: a CSV whose columns include no date.
    const noDate = 'Day,Total Downloads,Total Impressions\nMonday,1,2\nTuesday,3,4\n';
    const res = await upload(env.app, user, [
      ...sampleParts(calm, 'conversion'),
      { field: 'redownloadsCSV', name: 'no-date.csv', content: noDate },
    ]);
    expectError(
      res,
      400,
      'Redownloads export: no header row with a Date column found in the first 20 lines',
    );

    // A refused merge keeps neither a dataset nor the uploads.
    const datasets = await database.db
      .selectFrom('datasets')
      .select('id')
      .where('user_id', '=', user.userId)
      .execute();
    const uploads = await database.db
      .selectFrom('uploads')
      .select('id')
      .where('user_id', '=', user.userId)
      .execute();
    expect({ datasets, uploads }).toEqual({ datasets: [], uploads: [] });
  });

  it('over real HTTP, answers a refusal sent before the body ends and still closes', async ({
    database,
    redis,
  }) => {
    const app = await startApi(database, redis, { UPLOAD_RATE_LIMIT_PER_MIN: '1000' });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as { port: number };
      const user = await createTestUser(database.db, 'http@example.com');
      // Constructed filler: the refusal comes on the first part, 4 MB more are still to come.
      const filler = new Blob([new Uint8Array(Buffer.alloc(4 * 1024 * 1024, 'a,b,c\n'))]);
      const form = new FormData();
      form.append('conversionCSV', filler, 'export.txt');
      form.append('redownloadsCSV', filler, 'export.csv');
      const res = await fetch(`http://127.0.0.1:${port}/api/uploads`, {
        method: 'POST',
        body: form,
        headers: user.headers,
        signal: AbortSignal.timeout(20_000),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        message: 'Only CSV files are accepted',
        code: 'BAD_REQUEST',
      });
    } finally {
      // A connection left stalled mid-body would hold this close until the test times out.
      await app.close();
    }
  });

  it('merges one upload per user at a time: a second one meanwhile is refused with 409', async ({
    env,
    database,
    redis,
  }) => {
    const { app } = env;
    const user = await createTestUser(database.db, 'one-at-a-time@example.com');
    const other = await createTestUser(database.db, 'someone-else@example.com');
    const queues = openTestQueues(redis);
    const merges = queues.producers.queue(QUEUES.csvMerge);
    // The first upload waits in the queue, so it is still being merged when the second comes.
    await merges.pause();
    try {
      const first = upload(app, user, sampleParts(calm));
      await vi.waitUntil(async () => (await merges.getWaitingCount()) === 1, { timeout: 10_000 });
      expectError(await upload(app, user, sampleParts(calm)), 409, ONE_MERGE_MESSAGE);
      // Another user is not held up by it.
      const theirs = upload(app, other, sampleParts(calm));
      await vi.waitUntil(async () => (await merges.getWaitingCount()) === 2, { timeout: 10_000 });
      await merges.resume();
      expect((await first).statusCode).toBe(200);
      expect((await theirs).statusCode).toBe(200);
      // Once the first was answered, the user may upload again.
      expect((await upload(app, user, sampleParts(calm))).statusCode).toBe(200);
    } finally {
      await merges.resume();
      await queues.close();
    }
  });

  it('limits uploads per user and minute', async ({ database, redis }) => {
    // A second gateway on the same Redis prefix with a limit of 2 (counters are shared).
    const app = await startApi(database, redis, { UPLOAD_RATE_LIMIT_PER_MIN: '2' });
    try {
      const user = await createTestUser(database.db, 'limited@example.com');
      const other = await createTestUser(database.db, 'unlimited@example.com');
      const txt = [{ field: 'conversionCSV', name: 'a.txt', content: 'x' }];
      expectError(await upload(app, user, txt), 400, 'Only CSV files are accepted');
      expectError(await upload(app, user, txt), 400, 'Only CSV files are accepted');
      const third = expectError(
        await upload(app, user, sampleParts(calm)),
        429,
        /^Too many attempts/,
      );
      expect(third.retryAfter).toBeGreaterThan(0);
      // Another user has a budget of their own.
      expectError(await upload(app, other, txt), 400, 'Only CSV files are accepted');
    } finally {
      await app.close();
    }
  });
});
