import type { TChangeFlag, TMetricsComparison, TPreviousCoverage, TSpike } from '@aso/contracts';
import { formatDay } from './date.helpers';
import { formatCount, formatPercent, formatPoints } from './format.helpers';
import { CONVERSION_RATES } from './metrics.calculator';
import type { TTrafficSource } from './sources.constants';

/** Commentary keeps at most this many lines per source (docs/product.md#dashboard-computation). */
export const COMMENTARY_MAX_LINES = 3;

/**
 * The line shown for a source without data (docs/product.md#error-catalogue: "No source data in
 * period").
 */
export function noDataLine(sourceName: string): string {
  return `No data for ${sourceName} in the selected period`;
}

/** The words for a previous period without data: "no data for the previous period". */
export const NO_PREVIOUS_DATA = 'no data for the previous period';

/**
 * How many days a partly covered comparison rests on: 'compared on 9 of 30 days' (null when
 * every day of the period is compared, or none).
 */
export function comparedDaysPhrase(coverage: TPreviousCoverage): string | null {
  if (!coverage.partial) return null;
  return `compared on ${coverage.comparedDays} of ${coverage.periodDays} days`;
}

/** True when a comparison compares something (the previous period has matching days with data). */
export function isComparable(comparison: Pick<TMetricsComparison, 'coverage'>): boolean {
  return comparison.coverage.comparedDays > 0;
}

/** What the commentary of one source is written from. */
export interface TSourceCommentaryInput {
  source: TTrafficSource;
  hasData: boolean;
  comparison: TMetricsComparison;
  /** Which columns the export has for the source. */
  has: { firstTimeDownloads: boolean; impressions: boolean; redownloads: boolean };
  spike: TSpike | null;
  /** Share of all first-time downloads, percent 0-100. */
  shareOfFirstTimeDownloads: number;
}

/**
 * Commentary lines of one source (docs/product.md#dashboard-sections and #dashboard-computation),
 * at most 3, in this priority: first-time downloads against the previous period; conversion rate
 * (first-time downloads / impressions) against the previous period; the spike or drop when its
 * magnitude exceeds 50% ('notable' above 100%); the source's share of all first-time downloads;
 * redownloads against the previous period. A line is written only when the export has the columns
 * it needs. A source without data gets the single line 'No data for <source> in the selected
 * period'.
 */
export function writeSourceCommentary(input: TSourceCommentaryInput): string[] {
  const { source, comparison: c } = input;
  if (!input.hasData) return [noDataLine(source.name)];
  const lines: string[] = [];

  const comparable = isComparable(c);
  const partly = comparedDaysPhrase(c.coverage);
  if (input.has.firstTimeDownloads) {
    const cur = c.current.firstTimeDownloads;
    const prev = c.previous.firstTimeDownloads;
    const change = c.changes.firstTimeDownloads;
    // On a partly covered previous period the figure compared is the matching days' sum.
    const against = partly
      ? `${formatCount(c.compared.firstTimeDownloads)} against ${formatCount(prev)}, ${partly}`
      : `previous period: ${formatCount(prev)}`;
    // Without a previous period to compare with, the line states the figure and nothing more.
    if (!comparable) {
      lines.push(`${source.name} brought ${formatCount(cur)} first-time downloads.`);
    } else if (prev === 0) {
      lines.push(
        `${source.name} brought ${formatCount(cur)} first-time downloads; the previous period has none to compare with.`,
      );
    } else if (c.flags.firstTimeDownloads === 'Up') {
      lines.push(
        `${source.name} first-time downloads rose ${formatPercent(change)} to ${formatCount(cur)} (${against}).`,
      );
    } else if (c.flags.firstTimeDownloads === 'Down') {
      lines.push(
        `${source.name} first-time downloads fell ${formatPercent(-change)} to ${formatCount(cur)} (${against}).`,
      );
    } else {
      lines.push(
        `${source.name} first-time downloads were stable at ${formatCount(cur)} (${formatPercent(change, { signed: true })} ${partly ? `; ${against}` : `on the previous period's ${formatCount(prev)}`}).`.replace(
          ' ;',
          ';',
        ),
      );
    }
  }

  if (input.has.impressions) {
    const impressions = c.current.impressions;
    const rate = c.current.conversionRate;
    const prevRate = c.previous.conversionRate;
    const points = formatPoints(c.pointChanges.conversionRate);
    const extra = partly ? `, ${partly}` : '';
    const on = `on ${formatCount(impressions)} impressions`;
    const name = CONVERSION_RATES.conversionRate.name;
    if (impressions === 0) {
      lines.push(`No impressions were recorded, so there is no ${name.toLowerCase()}.`);
    } else if (!comparable || prevRate === 0) {
      lines.push(`${name} was ${formatPercent(rate)}, ${on}.`);
    } else if (c.flags.conversionRate === 'Up') {
      lines.push(
        `${name} rose to ${formatPercent(rate)} from ${formatPercent(prevRate)} (${points}${extra}), ${on}.`,
      );
    } else if (c.flags.conversionRate === 'Down') {
      lines.push(
        `${name} fell to ${formatPercent(rate)} from ${formatPercent(prevRate)} (${points}${extra}), ${on}.`,
      );
    } else {
      lines.push(
        `${name} was stable at ${formatPercent(rate)} (previous period: ${formatPercent(prevRate)}, ${points}${extra}), ${on}.`,
      );
    }
  }

  if (input.spike?.reported) lines.push(spikeLine(input.spike));

  if (input.has.firstTimeDownloads && input.shareOfFirstTimeDownloads > 0) {
    lines.push(
      `${source.name} accounted for ${formatPercent(input.shareOfFirstTimeDownloads)} of all first-time downloads.`,
    );
  }

  if (input.has.redownloads) {
    lines.push(
      comparable
        ? `Redownloads were ${formatCount(c.current.redownloads)} (${changeClause(c.changes.redownloads, c.flags.redownloads, c.previous.redownloads)}).`
        : `Redownloads were ${formatCount(c.current.redownloads)}.`,
    );
  }

  return lines.slice(0, COMMENTARY_MAX_LINES);
}

/** The sentence about a spike or drop (docs/product.md#dashboard-computation). */
export function spikeLine(spike: TSpike): string {
  const what = spike.type === 'drop' ? 'A drop' : spike.notable ? 'A notable spike' : 'A spike';
  const side = spike.type === 'drop' ? 'below' : 'above';
  return `${what} on ${formatDay(spike.date)}: ${formatCount(spike.value)} first-time downloads, ${formatPercent(spike.magnitude)} ${side} the 7-day average of ${formatCount(spike.average)}.`;
}

/** 'up 4.2% on the previous period' / 'down ...' / 'stable, +1.0%' / 'none in the previous period'. */
export function changeClause(change: number, flag: TChangeFlag, previous: number): string {
  if (previous === 0) return 'none in the previous period';
  switch (flag) {
    case 'Up':
      return `up ${formatPercent(change)} on the previous period`;
    case 'Down':
      return `down ${formatPercent(-change)} on the previous period`;
    case 'Stable':
      return `stable, ${formatPercent(change, { signed: true })} on the previous period`;
  }
}

/** One ranked source for {@link writeRankingSentence}. */
export interface TRankingEntry {
  name: string;
  firstTimeDownloads: number;
  /** Percent 0-100 of all first-time downloads. */
  share: number;
}

/** 'a', 'a and b', 'a, b and c' (or with 'or'). */
export function joinList(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]!}`;
}

/**
 * The source-ranking sentence of 'First-Time Downloads by Source'
 * (docs/product.md#dashboard-sections): the four dashboard sources ranked by first-time downloads,
 * largest first (ties keep the documented order), with each one's share of all first-time
 * downloads. Sources with none are left out.
 *
 * @param entries - the four dashboard sources in the documented order.
 */
export function writeRankingSentence(entries: readonly TRankingEntry[]): string {
  const ranked = entries
    .filter((e) => e.firstTimeDownloads > 0)
    .map((e, index) => ({ e, index }))
    .sort((a, b) => b.e.firstTimeDownloads - a.e.firstTimeDownloads || a.index - b.index)
    .map(({ e }) => e);
  if (ranked.length === 0) {
    return `No first-time downloads came from ${joinList(
      entries.map((e) => e.name),
      'or',
    )} in the selected period.`;
  }
  const [top, ...rest] = ranked as [TRankingEntry, ...TRankingEntry[]];
  const head = `${top.name} drove the most first-time downloads (${formatCount(top.firstTimeDownloads)}, ${formatPercent(top.share)} of all first-time downloads)`;
  if (rest.length === 0) {
    return `${top.name} was the only one of the four main sources with first-time downloads (${formatCount(top.firstTimeDownloads)}, ${formatPercent(top.share)} of all first-time downloads).`;
  }
  const others = rest.map(
    (e) => `${e.name} (${formatCount(e.firstTimeDownloads)}, ${formatPercent(e.share)})`,
  );
  return `${head}, followed by ${joinList(others)}.`;
}

/** What the Performance Overview paragraph is written from. */
export interface TOverviewInput {
  range: { start: string; end: string; days: number };
  totals: TMetricsComparison;
  /** Rows of the whole dataset. */
  totalRows: number;
  currentRows: number;
  hasDateColumn: boolean;
  /** Days of the range absent from the export or empty in every source (first few listed). */
  missingDays?: { count: number; days: readonly string[] };
}

function daysLabel(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

function comparisonClause(
  current: TMetricsComparison,
  key: 'totalDownloads' | 'impressions',
): string {
  const previous = current.previous[key];
  if (previous === 0) return 'not comparable (none before)';
  const change = current.changes[key];
  switch (current.flags[key]) {
    case 'Up':
      return `up ${formatPercent(change)} (from ${formatCount(previous)})`;
    case 'Down':
      return `down ${formatPercent(-change)} (from ${formatCount(previous)})`;
    case 'Stable':
      return `stable (${formatPercent(change, { signed: true })}, from ${formatCount(previous)})`;
  }
}

/**
 * The 'Performance Overview' paragraph of the KPI report (docs/product.md#dashboard-sections):
 * total downloads and impressions of the range, their change against the previous period of the
 * same length (docs/product.md#dashboard-computation), and the average conversion rate (first-time
 * downloads / impressions) with Apple's rate (total downloads / impressions) beside it.
 */
export function writePerformanceOverview(input: TOverviewInput): string {
  const { range, totals: t } = input;
  const span = `${formatDay(range.start)} to ${formatDay(range.end)}`;
  if (input.totalRows === 0) return `No data available for ${span}.`;
  if (!input.hasDateColumn) return 'No date field found, so no period can be analysed.';
  if (input.currentRows === 0) return `No data available for ${span}.`;
  const previousLabel = range.days === 1 ? 'the previous day' : `the previous ${range.days} days`;

  const sentences = [
    `From ${span} (${daysLabel(range.days)}) the app had ${formatCount(t.current.totalDownloads)} total downloads from ${formatCount(t.current.impressions)} impressions.`,
  ];
  const partly = comparedDaysPhrase(t.coverage);
  const missing = input.missingDays ?? { count: 0, days: [] };
  if (missing.count > 0) {
    const shown = missing.days.map(formatDay);
    const more = missing.count > shown.length ? ` and ${missing.count - shown.length} more` : '';
    sentences.push(
      `The export has no data on ${missing.count === 1 ? '1 day' : `${missing.count} days`} of the period (${shown.join(', ')}${more}): missing data, not days without downloads.`,
    );
  }
  // With no previous period there is nothing to say about changes against it.
  if (isComparable(t) && partly) {
    sentences.push(
      `The data covers only ${t.coverage.days} of ${previousLabel}, so the comparison uses the matching days only (${partly}): total downloads were ${comparisonClause(t, 'totalDownloads')} and impressions ${comparisonClause(t, 'impressions')}.`,
    );
  } else if (isComparable(t)) {
    sentences.push(
      `Against ${previousLabel}, total downloads were ${comparisonClause(t, 'totalDownloads')} and impressions ${comparisonClause(t, 'impressions')}.`,
    );
  }
  const ft = CONVERSION_RATES.conversionRate;
  const apple = CONVERSION_RATES.appleConversionRate;
  if (t.current.impressions === 0) {
    sentences.push(
      `First-time downloads were ${formatCount(t.current.firstTimeDownloads)}; with no impressions recorded there is no conversion rate.`,
    );
  } else {
    let rateClause = '';
    if (isComparable(t) && t.previous.conversionRate !== 0) {
      const prev = formatPercent(t.previous.conversionRate);
      const points = formatPoints(t.pointChanges.conversionRate);
      rateClause =
        t.flags.conversionRate === 'Up'
          ? `, up ${points.slice(1)} from ${prev}`
          : t.flags.conversionRate === 'Down'
            ? `, down ${points.slice(1)} from ${prev}`
            : `, stable against ${prev} (${points})`;
    }
    sentences.push(
      `First-time downloads were ${formatCount(t.current.firstTimeDownloads)}: a ${ft.name.toLowerCase()} of ${formatPercent(t.current.conversionRate)} (${ft.formula})${rateClause}. The ${apple.name} (${apple.formula}) is ${formatPercent(t.current.appleConversionRate)}.`,
    );
  }
  return sentences.join(' ');
}
