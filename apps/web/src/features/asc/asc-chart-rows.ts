import type { TAscMetrics, TChartDataRow } from '@aso/contracts';

/**
 * The dashboard's rows from imported App Store Connect figures: one row per Date (ISO) with,
 * per source type, `<Source Type> Impressions`, `... Product Page Views`, `... First-Time
 * Downloads`, `... Redownloads` and `... Total Downloads`, then the totals across source types
 * and the `Territory` (the filter's, else 'All'). These are the columns the uploaded exports'
 * rows have, so every chart and report of the dashboard reads them the same way (source types
 * are matched case-insensitively: "App Store search" is the exports' "App Store Search").
 * Rows are in date order.
 */
export function ascChartRows(
  metrics: TAscMetrics['rows'],
  territory: string | null,
): TChartDataRow[] {
  const byDate = new Map<string, Record<string, number>>();
  const sources: string[] = [];
  for (const r of metrics) {
    if (!sources.includes(r.sourceType)) sources.push(r.sourceType);
    const row = byDate.get(r.date) ?? {};
    const add = (key: string, n: number) => (row[key] = (row[key] ?? 0) + n);
    const s = r.sourceType;
    add(`${s} Impressions`, r.impressions);
    add(`${s} Product Page Views`, r.productPageViews);
    add(`${s} First-Time Downloads`, r.firstTimeDownloads);
    add(`${s} Redownloads`, r.redownloads);
    add(`${s} Total Downloads`, r.firstTimeDownloads + r.redownloads);
    add('Total Impressions', r.impressions);
    add('Total Product Page Views', r.productPageViews);
    add('Total First-Time Downloads', r.firstTimeDownloads);
    add('Total Redownloads', r.redownloads);
    add('Total Downloads', r.firstTimeDownloads + r.redownloads);
    byDate.set(r.date, row);
  }
  const columns = [
    ...sources.flatMap((s) =>
      [
        'Impressions',
        'Product Page Views',
        'First-Time Downloads',
        'Redownloads',
        'Total Downloads',
      ].map((m) => `${s} ${m}`),
    ),
    'Total Impressions',
    'Total Product Page Views',
    'Total First-Time Downloads',
    'Total Redownloads',
    'Total Downloads',
  ];
  return [...byDate.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, values]) => {
      const row: TChartDataRow = { Date: date };
      for (const c of columns) row[c] = values[c] ?? 0;
      row['Territory'] = territory ?? 'All';
      return row;
    });
}
