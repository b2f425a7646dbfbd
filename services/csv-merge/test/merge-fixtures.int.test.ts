import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ZMergedData } from '@aso/contracts';
import { parseAndMergeExports, toMergedData, writeProcessedCsv } from '../src/merge/index';
import { ascFixture, rawNumber, readSampleExport, SAMPLE_EXPORTS } from './fixture-paths.helpers';

describe.each(SAMPLE_EXPORTS)('sample exports $appName / $territory', (sample) => {
  const conversionPath = ascFixture(sample.conversion);
  const redownloadsPath = ascFixture(sample.redownloads);
  const conv = readSampleExport(conversionPath);
  const redl = readSampleExport(redownloadsPath);

  it('merges both files: app name, territory, rows, headers', async () => {
    const merged = await parseAndMergeExports({
      conversionCSV: createReadStream(conversionPath),
      redownloadsCSV: createReadStream(redownloadsPath),
    });
    expect(merged.appName).toBe(sample.appName);
    expect(merged.territory).toBe(sample.territory);
    expect(merged.toRowObjects()).toHaveLength(sample.days);
    expect(merged.headers).toEqual([
      ...conv.headers,
      ...redl.headers.filter((h) => h !== 'Date'),
      'Territory',
    ]);
    expect(merged.dateSpan).toEqual({ start: sample.start, end: sample.end });
    expect(merged.warnings).toEqual([]);

    const data = toMergedData(merged, 'dl-1');
    expect(ZMergedData.parse(data)).toEqual(data);
    expect(data.preview).toEqual(merged.toRowObjects().slice(0, 10));
    expect(data.totalRows).toBe(sample.days);
  });

  it('keeps every cell of both files, numbers as numbers and "-" as null', async () => {
    const merged = await parseAndMergeExports({
      conversionCSV: createReadStream(conversionPath),
      redownloadsCSV: createReadStream(redownloadsPath),
    });
    // Both files list the same days in the same (ascending) order.
    expect(merged.toRowObjects().map((r) => r.Date)).toEqual(conv.rows.map((r) => r.Date));
    merged.toRowObjects().forEach((row, i) => {
      for (const source of [conv.rows[i]!, redl.rows[i]!]) {
        for (const [header, text] of Object.entries(source)) {
          if (header === 'Date') continue;
          expect(row[header], `${String(row.Date)} ${header}`).toBe(rawNumber(text));
        }
      }
      expect(row.Territory).toBe(sample.territory);
    });
  });

  it('works with the redownloads file alone', async () => {
    const merged = await parseAndMergeExports({
      redownloadsCSV: createReadStream(redownloadsPath),
    });
    expect(merged.headers).toEqual([...redl.headers, 'Territory']);
    expect(merged.toRowObjects()).toHaveLength(sample.days);
    expect(merged.appName).toBe(sample.appName);
    expect(merged.territory).toBe(sample.territory);
    expect(merged.toRowObjects()[0]!['Total Redownloads']).toBe(
      rawNumber(redl.rows[0]!['Total Redownloads']!),
    );
  });

  it('writes a processed CSV that parses back to the same rows', async () => {
    const merged = await parseAndMergeExports({
      conversionCSV: createReadStream(conversionPath),
      redownloadsCSV: createReadStream(redownloadsPath),
    });
    const csv = writeProcessedCsv(merged);
    const parsed: string[][] = parse(csv);
    const [header, ...records] = parsed;
    expect(header).toEqual(merged.headers);
    expect(records).toHaveLength(merged.toRowObjects().length);
    records.forEach((record, i) => {
      const row = merged.toRowObjects()[i]!;
      merged.headers.forEach((h, j) => {
        const value = row[h];
        expect(record[j]).toBe(value === null || value === undefined ? '' : String(value));
      });
    });
  });
});

describe('Habit Tracker Pro quirks (fixtures/SOURCES.md)', () => {
  const sample = SAMPLE_EXPORTS[0];

  it('reads the BOM, CRLF, quoted thousands, the missing Web Referrer day and the zero day', async () => {
    const merged = await parseAndMergeExports({
      conversionCSV: createReadStream(ascFixture(sample.conversion)),
      redownloadsCSV: createReadStream(ascFixture(sample.redownloads)),
    });
    expect(merged.headers[0]).toBe('Date');
    expect(merged.files.map((f) => [f.encoding, f.headerLine, f.view, f.dateRange])).toEqual([
      ['utf-8', 6, 'Conversion Rate', 'Jun 1, 2025 - Aug 31, 2025'],
      ['utf-8', 6, 'Redownloads', 'Jun 1, 2025 - Aug 31, 2025'],
    ]);
    const day61 = merged.toRowObjects()[60]!;
    expect(day61.Date).toBe('7/31/25');
    expect(day61['Web Referrer First-Time Downloads']).toBeNull();
    expect(day61['Web Referrer Redownloads']).toBeNull();
    expect(day61['App Store Search Impressions (Unique Devices)']).toBe(10576);
    expect(day61['Total Impressions']).toBe(31226);
    const day56 = merged.toRowObjects()[55]!;
    expect(day56.Date).toBe('7/26/25');
    expect(day56['Total Impressions']).toBe(0);
  });
});
