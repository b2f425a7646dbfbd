import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  CsvExportError,
  exportKind,
  parseAndMergeExports,
  parseDateRangeText,
  parseExport,
  toMergedData,
} from '../src/merge/index';
import { ascFixture, SAMPLE_EXPORTS } from './fixture-paths.helpers';

const [HABIT, CALM, TINY] = SAMPLE_EXPORTS;

function sample(name: string): Readable {
  return createReadStream(ascFixture(name));
}

async function refusal(promise: Promise<unknown>): Promise<CsvExportError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CsvExportError);
  return error as CsvExportError;
}

describe('exports checked against each other', () => {
  it('refuses two exports of different apps, territories and date ranges, naming both values', async () => {
    const error = await refusal(
      parseAndMergeExports({
        conversionCSV: sample(HABIT.conversion),
        redownloadsCSV: sample(CALM.redownloads),
      }),
    );
    expect(error.reason).toBe('mismatch');
    expect(error.message).toBe(
      "redownloadsCSV: the two exports do not match: app name 'Habit Tracker Pro' in conversionCSV, 'Calm Notes: Journal & Mood' in redownloadsCSV; territory 'United States' in conversionCSV, 'United Kingdom' in redownloadsCSV; date range 'Jun 1, 2025 - Aug 31, 2025' in conversionCSV, 'Jul 20, 2025 - Aug 18, 2025' in redownloadsCSV. Export both files for the same app, territory and date range.",
    );
  });

  it('compares the days of the rows when the files state no date range', async () => {
    const error = await refusal(
      parseAndMergeExports({
        conversionCSV: sample(TINY.conversion),
        redownloadsCSV: sample(CALM.redownloads),
      }),
    );
    expect(error.message).toContain(
      "date range '2025-03-01 to 2025-03-14' in conversionCSV, 'Jul 20, 2025 - Aug 18, 2025' in redownloadsCSV",
    );
    expect(error.message).not.toContain('app name');
  });

  it('refuses one territory against another even when the app and days agree', async () => {
    const conversion = [
      '"Name","Calm Notes: Journal & Mood"',
      '"Territory","France"',
      'Date,Total Impressions,Total First-Time Downloads',
      '7/20/25,100,5',
      '7/21/25,120,6',
    ].join('\n');
    const redownloads = [
      '"Name","calm notes:  journal & mood"',
      '"Territory","Germany"',
      'Date,Total Redownloads,Search Redownloads',
      '7/20/25,3,1',
      '7/21/25,4,2',
    ].join('\n');
    const error = await refusal(
      parseAndMergeExports({
        conversionCSV: Readable.from([conversion]),
        redownloadsCSV: Readable.from([redownloads]),
      }),
    );
    expect(error.message).toBe(
      "redownloadsCSV: the two exports do not match: territory 'France' in conversionCSV, 'Germany' in redownloadsCSV. Export both files for the same app, territory and date range.",
    );
  });

  it('recognises files given in each other’s slots by their columns and says so', async () => {
    const merged = await parseAndMergeExports({
      conversionCSV: sample(CALM.redownloads),
      redownloadsCSV: sample(CALM.conversion),
    });
    const straight = await parseAndMergeExports({
      conversionCSV: sample(CALM.conversion),
      redownloadsCSV: sample(CALM.redownloads),
    });
    expect(merged.swapped).toBe(true);
    expect(merged.notices).toEqual([
      "The files were in each other's slots: the file given as conversion data is the redownloads export and the file given as redownloads data is the conversion export. They were merged the right way round.",
    ]);
    expect(merged.headers).toEqual(straight.headers);
    expect(merged.toRowObjects()).toEqual(straight.toRowObjects());
    const answer = toMergedData(merged, 'x');
    expect(answer).toMatchObject({
      swapped: true,
      appName: CALM.appName,
      territory: CALM.territory,
    });
    expect(straight.swapped).toBe(false);
    expect(straight.notices).toEqual([]);
  });

  it('uses one file alone in its own role, whichever slot it came in', async () => {
    const alone = await parseAndMergeExports({ redownloadsCSV: sample(HABIT.conversion) });
    expect(alone.swapped).toBe(true);
    expect(alone.notices).toEqual([
      'The file given as redownloads data is a conversion export; it was used as the conversion data.',
    ]);
    expect(alone.rowCount).toBe(HABIT.days);
    const right = await parseAndMergeExports({ conversionCSV: sample(HABIT.conversion) });
    expect(right.swapped).toBe(false);
    expect(right.toRowObjects()).toEqual(alone.toRowObjects());
  });

  it('refuses two exports of the same kind, naming the slot to fix', async () => {
    const twoConversions = await refusal(
      parseAndMergeExports({
        conversionCSV: sample(TINY.conversion),
        redownloadsCSV: sample(TINY.conversion),
      }),
    );
    expect(twoConversions.reason).toBe('same_kind');
    expect(twoConversions.message).toBe(
      'redownloadsCSV: both files are conversion exports; upload the Redownloads export (by source type) as redownloads data',
    );
    const twoRedownloads = await refusal(
      parseAndMergeExports({
        conversionCSV: sample(TINY.redownloads),
        redownloadsCSV: sample(TINY.redownloads),
      }),
    );
    expect(twoRedownloads.message).toMatch(/^conversionCSV: both files are redownloads exports/);
  });

  it('tells the kind of an export by its columns, then by its view name', async () => {
    const parse = (text: string) => parseExport(Readable.from([text]), 'conversionCSV');
    expect(exportKind(await parse('Date,A Impressions (Unique Devices),B\n7/1/25,1,2\n'))).toBe(
      'conversion',
    );
    expect(exportKind(await parse('Date,Total Re-Downloads,B\n7/1/25,1,2\n'))).toBe('redownloads');
    expect(exportKind(await parse('View,Redownloads\nDate,A,B\n7/1/25,1,2\n'))).toBe('redownloads');
    expect(exportKind(await parse('Date,A,B\n7/1/25,1,2\n'))).toBeNull();
  });

  it('reads the date range of a preamble in the ways exports write it', () => {
    const expected = { start: '2025-06-01', end: '2025-08-31' };
    expect(parseDateRangeText('Jun 1, 2025 - Aug 31, 2025')).toEqual(expected);
    expect(parseDateRangeText('June 1 2025 – August 31 2025')).toEqual(expected);
    expect(parseDateRangeText('6/1/25 - 8/31/25')).toEqual(expected);
    expect(parseDateRangeText('2025-06-01,2025-08-31')).toEqual(expected);
    expect(parseDateRangeText('last 90 days')).toBeNull();
    expect(parseDateRangeText('Feb 30, 2025 - Mar 1, 2025')).toBeNull();
  });
});
