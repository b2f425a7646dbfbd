import { describe, expect } from 'vitest';
import { createTestUser } from '@aso/testkit';
import { ZKpiReport } from '@aso/contracts';
import { it, SAMPLES, uploadSample } from './analytics.helpers';

const HABIT = SAMPLES[0]; // 2025-06-01..2025-08-31

describe('GET /api/reports/{downloadId}: the previous period, honestly', () => {
  it('says for each figure whether the previous period has data and on how many days', async ({
    env,
    database,
  }) => {
    const user = await createTestUser(database.db, 'compare@example.com');
    const merged = await uploadSample(env.app, user, HABIT);
    const report = async (start: string, end: string) => {
      const res = await env.app.inject({
        url: `/api/reports/${merged.downloadId}?start=${start}&end=${end}`,
        headers: user.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return ZKpiReport.parse(res.json());
    };

    // The first 10 days: the previous 10 are before the data.
    const first = await report('2025-06-01', '2025-06-10');
    for (const figure of [first.totals, ...first.sources]) {
      expect(figure.coverage).toMatchObject({
        periodDays: 10,
        days: 0,
        hasData: false,
        comparedDays: 0,
      });
    }
    // No previous period: no sentence about changes against it.
    expect(first.performanceOverview).not.toMatch(/previous/);

    // 2025-06-05..2025-06-14: the previous period 05-26..06-04 has data on 4 days.
    const partly = await report('2025-06-05', '2025-06-14');
    expect(partly.totals.coverage).toEqual({
      periodDays: 10,
      days: 4,
      currentDays: 10,
      hasData: true,
      comparedDays: 4,
      partial: true,
    });
    // Compared like for like: the 4 matching days of the range against the 4 before.
    expect(partly.totals.compared.totalDownloads).toBeLessThan(
      partly.totals.current.totalDownloads,
    );
    const ratio = partly.totals.compared.totalDownloads / partly.totals.previous.totalDownloads;
    expect(partly.totals.changes.totalDownloads).toBeCloseTo((ratio - 1) * 100, 8);

    // A fully covered previous period compares every day.
    const late = await report('2025-08-01', '2025-08-31');
    expect(late.totals.coverage).toMatchObject({ days: 31, comparedDays: 31, partial: false });
    expect(late.totals.compared).toEqual(late.totals.current);
    expect(late.totals.pointChanges.conversionRate).toBeCloseTo(
      late.totals.current.conversionRate - late.totals.previous.conversionRate,
      10,
    );
  });
});
