import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { createTestUser } from '@aso/testkit';
import { ZErrorBody, ZUploadResult } from '@aso/contracts';
import { ascExport, it, sampleParts, SAMPLES, upload, type TFilePart } from './analytics.helpers';

const [HABIT, CALM, TINY] = SAMPLES;

function part(field: 'conversionCSV' | 'redownloadsCSV', name: string): TFilePart {
  return { field, name, content: readFileSync(ascExport(name)) };
}

describe('POST /api/uploads checks the two exports against each other', () => {
  it('refuses exports of another app, territory and date range with a 400 naming both values', async ({
    env,
    database,
  }) => {
    const user = await createTestUser(database.db, 'mismatch@example.com');
    const res = await upload(env.app, user, [
      part('conversionCSV', HABIT.conversion),
      part('redownloadsCSV', CALM.redownloads),
    ]);
    expect(res.statusCode, res.body).toBe(400);
    const { message } = ZErrorBody.parse(res.json());
    for (const value of [
      "app name 'Habit Tracker Pro' in conversionCSV, 'Calm Notes: Journal & Mood' in redownloadsCSV",
      "territory 'United States' in conversionCSV, 'United Kingdom' in redownloadsCSV",
      "date range 'Jun 1, 2025 - Aug 31, 2025' in conversionCSV, 'Jul 20, 2025 - Aug 18, 2025' in redownloadsCSV",
    ]) {
      expect(message).toContain(value);
    }
    // Nothing was stored for the refused pair.
    const datasets = await database.db
      .selectFrom('datasets')
      .select('datasets.id')
      .where('datasets.user_id', '=', user.userId)
      .execute();
    expect(datasets).toEqual([]);
  });

  it('refuses exports of other days when neither states its date range', async ({
    env,
    database,
  }) => {
    const user = await createTestUser(database.db, 'days@example.com');
    const res = await upload(env.app, user, [
      part('conversionCSV', TINY.conversion),
      part('redownloadsCSV', HABIT.redownloads),
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(ZErrorBody.parse(res.json()).message).toContain(
      "date range '2025-03-01 to 2025-03-14' in conversionCSV, 'Jun 1, 2025 - Aug 31, 2025' in redownloadsCSV",
    );
  });

  it('merges files given in each other’s slots the right way round and says so', async ({
    env,
    database,
  }) => {
    const user = await createTestUser(database.db, 'swapped@example.com');
    const straight = await upload(env.app, user, sampleParts(CALM));
    const swapped = await upload(env.app, user, [
      part('conversionCSV', CALM.redownloads),
      part('redownloadsCSV', CALM.conversion),
    ]);
    expect(swapped.statusCode, swapped.body).toBe(200);
    const a = ZUploadResult.parse(straight.json()).mergedData;
    const b = ZUploadResult.parse(swapped.json()).mergedData;
    expect(a.swapped).toBe(false);
    expect(b.swapped).toBe(true);
    expect(b.notices[0]).toMatch(/each other's slots.*merged the right way round/);
    expect(b.headers).toEqual(a.headers);
    expect(b.preview).toEqual(a.preview);
    const [chartA, chartB] = await Promise.all(
      [a, b].map((m) =>
        env.app.inject({ url: `/api/chart-data/${m.downloadId}`, headers: user.headers }),
      ),
    );
    expect(chartB!.json()).toEqual(chartA!.json());
  });

  it('reads two BOMs and mixed line breaks, and names the line of an unclosed quote', async ({
    env,
    database,
  }) => {
    const user = await createTestUser(database.db, 'strict@example.com');
    // Constructed from the samples: the conversion file's 10th line (7/24/25) opens a quote
    // that is never closed; the redownloads file starts with two BOMs and mixes CRLF and LF.
    const conversion = readFileSync(ascExport(CALM.conversion), 'utf8').split('\n');
    expect(conversion[9]).toMatch(/^7\/24\/25,/);
    conversion[9] = conversion[9]!.replace(',', ',"');
    const redownloads = readFileSync(ascExport(CALM.redownloads), 'utf8')
      .split('\n')
      .map((line, i) => (i % 2 === 0 ? `${line}\r` : line))
      .join('\n');
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const res = await upload(env.app, user, [
      { field: 'conversionCSV', name: 'conversion.csv', content: conversion.join('\n') },
      {
        field: 'redownloadsCSV',
        name: 'redownloads.csv',
        content: Buffer.concat([bom, bom, Buffer.from(redownloads)]),
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const { mergedData } = ZUploadResult.parse(res.json());
    expect(mergedData.appName).toBe(CALM.appName);
    expect(mergedData.totalRows).toBe(CALM.days);
    expect(mergedData.notices).toEqual([
      'The conversion data file: lines 10 to the end of the file were left out, unreadable as CSV rows (the quote opened on line 10 is never closed), so the days written there have no values; fix the quote and upload again.',
    ]);
    // The days above the broken line keep their conversion values; every day keeps its
    // redownloads, read line by line despite the mixed breaks.
    const rows = mergedData.preview;
    expect(rows[3]!['App Store Search First-Time Downloads']).toEqual(expect.any(Number));
    expect(rows[4]!['App Store Search First-Time Downloads']).toBeNull();
    expect(rows.every((row) => typeof row['Total Redownloads'] === 'number')).toBe(true);
  });

  it('takes one file alone from the other slot and says so', async ({ env, database }) => {
    const user = await createTestUser(database.db, 'alone@example.com');
    const res = await upload(env.app, user, [part('conversionCSV', HABIT.redownloads)]);
    expect(res.statusCode, res.body).toBe(200);
    const { mergedData } = ZUploadResult.parse(res.json());
    expect(mergedData.swapped).toBe(true);
    expect(mergedData.notices).toEqual([
      'The file given as conversion data is a redownloads export; it was used as the redownloads data.',
    ]);
    expect(mergedData.totalRows).toBe(HABIT.days);
    expect(mergedData.appName).toBe(HABIT.appName);
  });

  it('refuses two exports of the same kind', async ({ env, database }) => {
    const user = await createTestUser(database.db, 'same@example.com');
    const res = await upload(env.app, user, [
      part('conversionCSV', CALM.conversion),
      part('redownloadsCSV', CALM.conversion),
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(ZErrorBody.parse(res.json()).message).toBe(
      'Redownloads export: both files are conversion exports; upload the Redownloads export (by source type) as redownloads data',
    );
  });
});
