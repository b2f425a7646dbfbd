import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildKpiReport, buildKpiReportOfDataset } from '@aso/analytics';
import { ZChartData } from '@aso/contracts';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import {
  DatasetCache,
  estimateBytes,
  pickChartCoding,
  prepareReads,
  type TChartAnswer,
  type TDatasetStamp,
  type TPreparedReads,
} from './dataset.cache';

const EXPIRES = new Date('2030-01-01T00:00:00Z');
const stamp = (id: string, expires = EXPIRES): TDatasetStamp => ({ id, expires_at: expires });

const rows = [
  { Date: '7/1/25', 'Total Downloads': 10, 'Total Impressions': 100, Territory: 'Canada' },
  { Date: '7/2/25', 'Total Downloads': null, 'Total Impressions': 200, Territory: 'Canada' },
  { Date: '7/3/25', 'Total Downloads': 12.5, 'Total Impressions': 0, Territory: 'Canada' },
];

/** A prepared entry whose estimated size is `bytes` (for the bound tests). */
function entry(id: string, bytes: number, expires = EXPIRES): TPreparedReads {
  return { ...prepareReads(stamp(id, expires), rows), bytes };
}

function chartOf(prepared: TPreparedReads): TChartAnswer {
  if ('error' in prepared.chart) throw prepared.chart.error;
  return prepared.chart;
}

describe('prepareReads', () => {
  it('renders the rows as the zod serializer did, with a strong ETag from the id and the bytes', () => {
    const prepared = prepareReads(stamp('ds-1'), rows);
    const chart = chartOf(prepared);
    expect(chart.identity.body.toString('utf8')).toBe(JSON.stringify(ZChartData.parse(rows)));
    expect(chart.identity.etag).toMatch(/^"ds-1\.[\w-]{22}"$/);
    expect(prepared.expiresAt).toBe(EXPIRES.getTime());
    expect(prepared.bytes).toBe(estimateBytes(chart.identity.body.length));
    // Another representation of the same dataset gets another tag.
    const other = chartOf(prepareReads(stamp('ds-1'), rows.slice(1)));
    expect(other.identity.etag).not.toBe(chart.identity.etag);
    expect(other.identity.etag.startsWith('"ds-1.')).toBe(true);
  });

  it('prepares the rows for reports: the same reports as the rows give', () => {
    const { report } = prepareReads(stamp('ds-1'), rows);
    const range = { start: '2025-07-02', end: '2025-07-03' };
    expect(buildKpiReportOfDataset(report, range)).toStrictEqual(buildKpiReport(rows, range));
  });

  it('keeps a contract violation of the stored rows as the 500 the serializer gave', () => {
    const prepared = prepareReads(stamp('ds-bad'), [{ Date: '7/1/25', Nested: { a: 1 } }]);
    expect('error' in prepared.chart).toBe(true);
    const { error } = prepared.chart as { error: Error };
    expect(isResponseSerializationError(error)).toBe(true);
    expect((error as unknown as { statusCode: number }).statusCode).toBe(500);
    // Reports do not depend on it.
    expect(buildKpiReportOfDataset(prepared.report).rowCounts.total).toBe(1);
  });
});

describe('pickChartCoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.5', 'br'],
    // The client's q-values come first, the server's order breaks ties.
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['deflate, zstd', null],
  ] as const)('%j -> %j', (header, coding) => {
    expect(pickChartCoding(header)).toBe(coding);
  });
});

describe('DatasetCache', () => {
  it('loads once, then serves the kept entry while the stamp matches', async () => {
    const cache = new DatasetCache({ maxBytes: 1_000 });
    let loads = 0;
    const load = async () => {
      loads++;
      return entry('a', 100);
    };
    const first = await cache.get(stamp('a'), load);
    expect(await cache.get(stamp('a'), load)).toBe(first);
    expect(loads).toBe(1);
    expect({ size: cache.size, bytes: cache.bytes }).toEqual({ size: 1, bytes: 100 });
    // Another expiry means another dataset row: loaded again.
    const later = new Date('2031-01-01T00:00:00Z');
    const reloaded = await cache.get(stamp('a', later), async () => {
      loads++;
      return entry('a', 100, later);
    });
    expect(reloaded).not.toBe(first);
    expect(loads).toBe(2);
    expect(cache.size).toBe(1);
  });

  it('shares one load between concurrent reads', async () => {
    const cache = new DatasetCache({ maxBytes: 1_000 });
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      loads++;
      await gate;
      return entry('a', 100);
    };
    const reads = [cache.get(stamp('a'), load), cache.get(stamp('a'), load)];
    release();
    const [x, y] = await Promise.all(reads);
    expect(x).toBe(y);
    expect(loads).toBe(1);
  });

  it('keeps nothing for a dataset gone or a failed load', async () => {
    const cache = new DatasetCache({ maxBytes: 1_000 });
    expect(await cache.get(stamp('gone'), async () => null)).toBeNull();
    await expect(
      cache.get(stamp('broken'), async () => {
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
    expect(cache.size).toBe(0);
    expect(await cache.get(stamp('broken'), async () => entry('broken', 10))).not.toBeNull();
    expect(cache.has('broken')).toBe(true);
  });

  it('drops the least recently read entries beyond the bound, and never keeps one too big', async () => {
    const cache = new DatasetCache({ maxBytes: 300 });
    for (const id of ['a', 'b', 'c']) await cache.get(stamp(id), async () => entry(id, 100));
    // Reading 'a' makes 'b' the least recently read.
    await cache.get(stamp('a'), async () => entry('a', 100));
    await cache.get(stamp('d'), async () => entry('d', 100));
    expect(['a', 'b', 'c', 'd'].filter((id) => cache.has(id))).toEqual(['a', 'c', 'd']);
    expect(cache.bytes).toBe(300);

    const huge = await cache.get(stamp('huge'), async () => entry('huge', 301));
    expect(huge?.id).toBe('huge');
    expect(cache.has('huge')).toBe(false);
    expect(cache.bytes).toBe(300);

    const none = new DatasetCache({ maxBytes: 0 });
    expect(await none.get(stamp('a'), async () => entry('a', 1))).not.toBeNull();
    expect(none.size).toBe(0);
  });

  it('drops entries past their expiry when another is kept', async () => {
    let now = Date.parse('2029-01-01T00:00:00Z');
    const cache = new DatasetCache({ maxBytes: 1_000, now: () => now });
    const soon = new Date('2029-06-01T00:00:00Z');
    await cache.get(stamp('old', soon), async () => entry('old', 100, soon));
    now = Date.parse('2029-07-01T00:00:00Z');
    await cache.get(stamp('new'), async () => entry('new', 100));
    expect(cache.has('old')).toBe(false);
    expect(cache.bytes).toBe(100);
  });

  it('keeps report answers of kept datasets, least recently read first out, within the bound', async () => {
    const cache = new DatasetCache({ maxBytes: 1_000 });
    const a = (await cache.get(stamp('a'), async () => entry('a', 100)))!;
    const body = (n: number) => Buffer.alloc(n, 'x');
    cache.keepReport(a, 'r0', body(10));
    expect(cache.report(a, 'r0')).toEqual(body(10));
    expect(cache.bytes).toBe(110);
    // Another row of the same id (another expiry) never gets the first row's answers.
    const later = new Date('2031-01-01T00:00:00Z');
    expect(cache.report(entry('a', 100, later), 'r0')).toBeUndefined();

    // Reading 'a' and its report keeps them: 'c' and 'b' (least recently read) go first.
    const b = (await cache.get(stamp('b'), async () => entry('b', 300)))!;
    cache.keepReport(b, 'rb', body(90));
    await cache.get(stamp('a'), async () => entry('a', 100));
    expect(cache.report(a, 'r0')).toEqual(body(10));
    const c = (await cache.get(stamp('c'), async () => entry('c', 500)))!;
    expect(cache.bytes).toBe(1_000);
    cache.keepReport(c, 'rc', body(100));
    expect(cache.has('b')).toBe(false);
    cache.keepReport(c, 'rc2', body(250));
    expect(cache.report(b, 'rb')).toBeUndefined();
    expect(['a', 'b', 'c'].filter((id) => cache.has(id))).toEqual(['a', 'c']);
    expect(cache.bytes).toBe(100 + 10 + 500 + 100 + 250);

    // An entry that is not kept keeps no reports.
    const loose = entry('loose', 10);
    cache.keepReport(loose, 'r', body(1));
    expect(cache.report(loose, 'r')).toBeUndefined();
  });

  it('compresses the chart answer once per coding, to the same bytes, counted in the bound', async () => {
    const cache = new DatasetCache({ maxBytes: 10_000_000 });
    const prepared = (await cache.get(stamp('a'), async () => prepareReads(stamp('a'), rows)))!;
    const chart = chartOf(prepared);
    const before = cache.bytes;
    expect(await cache.chartBody(prepared, chart, null)).toBe(chart.identity);
    const [gz, gz2] = await Promise.all([
      cache.chartBody(prepared, chart, 'gzip'),
      cache.chartBody(prepared, chart, 'gzip'),
    ]);
    expect(gz2).toBe(gz);
    expect(gunzipSync(gz.body)).toEqual(chart.identity.body);
    expect(gz.etag).toBe(chart.identity.etag.replace(/"$/, '.gz"'));
    const br = await cache.chartBody(prepared, chart, 'br');
    expect(brotliDecompressSync(br.body)).toEqual(chart.identity.body);
    expect(br.etag).toBe(chart.identity.etag.replace(/"$/, '.br"'));
    // Counted once the compression is done (the next turn).
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.bytes).toBe(before + gz.body.length + br.body.length);

    // A dataset too big to keep keeps no compressed answer either.
    const small = new DatasetCache({ maxBytes: 10 });
    const big = (await small.get(stamp('a'), async () => prepareReads(stamp('a'), rows)))!;
    const bigGz = await small.chartBody(big, chartOf(big), 'gzip');
    expect(gunzipSync(bigGz.body)).toEqual(chart.identity.body);
    expect({ size: small.size, bytes: small.bytes }).toEqual({ size: 0, bytes: 0 });
  });

  it('refuses a bound that is not a number >= 0', () => {
    expect(() => new DatasetCache({ maxBytes: -1 })).toThrow(RangeError);
    expect(() => new DatasetCache({ maxBytes: Number.NaN })).toThrow(RangeError);
  });
});
