import type { TExecutiveSummary, TSourceReport } from '@aso/contracts';
import { isComparable, joinList } from './commentary.writer';
import { formatCount, formatPercent } from './format.helpers';
import { CONVERSION_RATES } from './metrics.calculator';
import type { TMetricsComparison } from '@aso/contracts';

/** A conversion rate of this percent or more is 'solid' (docs/product.md#dashboard-computation). */
export const SOLID_CONVERSION = 5;
/**
 * A conversion rate of this percent or more (and below 5%) is typical
 * (docs/product.md#dashboard-computation).
 */
export const TYPICAL_CONVERSION = 3;
/**
 * App Store Browse converting above this percent is very positive
 * (docs/product.md#dashboard-computation).
 */
export const BROWSE_VERY_POSITIVE = 1;
/**
 * App Store Search converting below this share of the overall rate underperforms
 * (docs/product.md#dashboard-computation).
 */
export const SEARCH_UNDERPERFORMING_SHARE = 0.8;
/**
 * A source's first-time downloads changing by this percent or more is a key fluctuation
 * (docs/product.md#dashboard-computation).
 */
export const KEY_FLUCTUATION = 10;

/** What the executive summary is written from. */
export interface TSummaryInput {
  totals: TMetricsComparison;
  /** The four dashboard sources. */
  sources: readonly TSourceReport[];
  currentRows: number;
}

/**
 * 'solid' at 5% or more, 'typical' from 3% to below 5%, otherwise room for improvement
 * (docs/product.md#dashboard-computation; boundaries compared unrounded, so 4.99% is typical).
 */
export function assessConversion(rate: number): TExecutiveSummary['conversionAssessment'] {
  if (rate >= SOLID_CONVERSION) return 'solid';
  if (rate >= TYPICAL_CONVERSION) return 'typical';
  return 'room_for_improvement';
}

/**
 * True when App Store Search converts below 80% of the overall rate
 * (docs/product.md#dashboard-computation). Both rates are first-time downloads / impressions; the
 * test is cross-multiplied (5 x search downloads x all impressions < 4 x all downloads x search
 * impressions) so that exactly 80% is not flagged. False when either has no impressions.
 */
export function isSearchUnderperforming(
  search: { firstTimeDownloads: number; impressions: number },
  overall: { firstTimeDownloads: number; impressions: number },
): boolean {
  if (search.impressions <= 0 || overall.impressions <= 0) return false;
  return (
    5 * search.firstTimeDownloads * overall.impressions <
    4 * overall.firstTimeDownloads * search.impressions
  );
}

/**
 * The Executive Summary (docs/product.md#dashboard-sections and #dashboard-computation), in the
 * wording of those rules ('solid', 'typical', 'room for improvement', 'very positive',
 * 'underperforming', 'key fluctuations'). Every rate is the first-time conversion rate
 * (`CONVERSION_RATES.conversionRate`), the one the KPI card and the monthly report show. Lines, in
 * order: the overall rate with its assessment; App Store Browse conversion (very positive above
 * 1%); App Store Search conversion against 80% of the overall rate; the key fluctuations, i.e. the dashboard sources whose first-time downloads changed
 * by 10% or more either way against the previous period (a source with no previous data has a
 * change of 0 and is never one). Browse and Search lines are left out when that source has no
 * impressions.
 */
export function writeExecutiveSummary(input: TSummaryInput): TExecutiveSummary {
  const t = input.totals.current;
  const rate = t.conversionRate;
  const conversionAssessment = assessConversion(rate);
  const browse = input.sources.find((s) => s.id === 'browse');
  const search = input.sources.find((s) => s.id === 'search');

  const browseVeryPositive =
    browse !== undefined &&
    browse.current.impressions > 0 &&
    browse.current.conversionRate > BROWSE_VERY_POSITIVE;
  const searchUnderperforming = search !== undefined && isSearchUnderperforming(search.current, t);
  const keyFluctuations = input.sources
    .filter((s) => isComparable(s) && Math.abs(s.changes.firstTimeDownloads) >= KEY_FLUCTUATION)
    .map((s) => ({
      id: s.id,
      name: s.name,
      change: s.changes.firstTimeDownloads,
      flag: s.flags.firstTimeDownloads,
    }));

  const lines: string[] = [];
  if (input.currentRows === 0) {
    lines.push('No data available for the selected period.');
  } else {
    const ft = CONVERSION_RATES.conversionRate;
    if (t.impressions === 0) {
      lines.push(
        `No impressions were recorded in the selected period, so the ${ft.name.toLowerCase()} cannot be judged.`,
      );
    } else {
      // The thresholds judge the one rate every figure of the report uses (named with its
      // formula); App Store Connect's rate has its own KPI card and is never judged here.
      const r = `The ${ft.name.toLowerCase()} (${ft.formula}) of ${formatPercent(rate)}`;
      switch (conversionAssessment) {
        case 'solid':
          lines.push(`${r} is solid (${SOLID_CONVERSION}% or more).`);
          break;
        case 'typical':
          lines.push(`${r} is typical (${TYPICAL_CONVERSION}% to ${SOLID_CONVERSION}%).`);
          break;
        case 'room_for_improvement':
          lines.push(`${r} is below ${TYPICAL_CONVERSION}%: there is room for improvement.`);
          break;
      }
    }
    if (browse && browse.current.impressions > 0) {
      const r = formatPercent(browse.current.conversionRate);
      const figures = `${formatCount(browse.current.firstTimeDownloads)} first-time downloads from ${formatCount(browse.current.impressions)} impressions`;
      lines.push(
        browseVeryPositive
          ? `App Store Browse conversion of ${r} (${figures}) is very positive (above ${BROWSE_VERY_POSITIVE}%).`
          : `App Store Browse conversion is ${r} (${figures}), not above ${BROWSE_VERY_POSITIVE}%.`,
      );
    }
    if (search && search.current.impressions > 0 && t.impressions > 0) {
      const r = formatPercent(search.current.conversionRate);
      const overall = formatPercent(rate);
      lines.push(
        searchUnderperforming
          ? `App Store Search conversion of ${r} is below 80% of the overall rate (${overall}): search is underperforming; review the title, subtitle, keyword field and first three screenshots.`
          : `App Store Search conversion of ${r} is at least 80% of the overall rate (${overall}).`,
      );
    }
    // With no previous period there is no sentence about changes against it.
    if (isComparable(input.totals))
      lines.push(
        keyFluctuations.length > 0
          ? `Key fluctuations against the previous period: ${joinList(
              keyFluctuations.map(
                (f, i) =>
                  `${f.name}${i === 0 ? ' first-time downloads' : ''} ${f.change > 0 ? 'up' : 'down'} ${formatPercent(Math.abs(f.change))}`,
              ),
            )}.`
          : 'No source changed its first-time downloads by 10% or more against the previous period.',
      );
  }

  return {
    conversionRate: rate,
    conversionAssessment,
    browseVeryPositive,
    searchUnderperforming,
    keyFluctuations,
    lines,
    text: lines.join(' '),
  };
}
