import type { TAscMetricsRow } from '@aso/contracts';
import { ASC_MEASURES, ASC_REPORTS, isProvisional, type TAscReportKind } from './report-tsv';

/** The measures read, per report, in their canonical form (for the database's filter). */
export const ASC_MEASURES_BY_KIND: Record<TAscReportKind, string[]> = {
  engagement: [],
  downloads: [],
};
for (const { kind, measure } of Object.values(ASC_MEASURES))
  ASC_MEASURES_BY_KIND[kind].push(measure);

/** A sum of Counts of one Date, report, measure and source type (over the other columns). */
export interface TAscSum {
  date: string;
  kind: string;
  measure: string;
  sourceType: string;
  counts: number;
}

/**
 * The metrics rows of the API: one per Date and source type (in the order of `sums`), with
 * impressions, product page views, first-time downloads and redownloads from the sums of
 * their measure (missing ones 0; "Unique Counts" are never used: they do not add up across
 * rows). A Date is provisional while any report's newest instance carrying it (`owners`)
 * was processed fewer than that report's completeness days after it.
 */
export function ascMetricRows(
  sums: readonly TAscSum[],
  owners: ReadonlyArray<{ date: string; kind: string; processingDate: string }>,
): TAscMetricsRow[] {
  const provisional = new Set<string>();
  for (const o of owners) {
    const def = ASC_REPORTS.find((d) => d.kind === o.kind);
    if (def && isProvisional(o.date, o.processingDate, def.completenessDays))
      provisional.add(o.date);
  }
  const fields = Object.entries(ASC_MEASURES) as Array<
    [keyof typeof ASC_MEASURES, (typeof ASC_MEASURES)[keyof typeof ASC_MEASURES]]
  >;
  const rows = new Map<string, TAscMetricsRow>();
  for (const s of sums) {
    const key = `${s.date}\t${s.sourceType}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        date: s.date,
        sourceType: s.sourceType,
        impressions: 0,
        productPageViews: 0,
        firstTimeDownloads: 0,
        redownloads: 0,
        provisional: provisional.has(s.date),
      };
      rows.set(key, row);
    }
    for (const [field, m] of fields) {
      if (s.kind === m.kind && s.measure === m.measure) row[field] += s.counts;
    }
  }
  return [...rows.values()];
}
