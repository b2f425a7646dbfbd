import type { TExecutiveSummary, TSourceReport } from '@aso/contracts';
import { joinList } from './commentary.writer';
import { formatPercent } from './format.helpers';
import type { TMetricsComparison } from '@aso/contracts';

/** A conversion rate of this percent or more is 'solid' (spec section 9). */
export const SOLID_CONVERSION = 5;
/** A conversion rate of this percent or more (and below 5%) is typical (spec section 9). */
export const TYPICAL_CONVERSION = 3;
/** App Store Browse converting above this percent is very positive (spec section 9). */
export const BROWSE_VERY_POSITIVE = 1;
/** App Store Search converting below this share of the overall rate underperforms (spec section 9). */
export const SEARCH_UNDERPERFORMING_SHARE = 0.8;
/** A source's first-time downloads changing by this percent or more is a key fluctuation (spec section 9). */
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
 * (spec section 9; boundaries compared unrounded, so 4.99% is typical).
 */
export function assessConversion(rate: number): TExecutiveSummary['conversionAssessment'] {
  if (rate >= SOLID_CONVERSION) return 'solid';
  if (rate >= TYPICAL_CONVERSION) return 'typical';
  return 'room_for_improvement';
}

/**
 * True when App Store Search converts below 80% of the overall rate (spec section 9). Both
 * rates are first-time downloads / impressions; the test is cross-multiplied
 * (5 x search downloads x all impressions < 4 x all downloads x search impressions) so that
 * exactly 80% is not flagged. False when either has no impressions.
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
 * The Executive Summary (spec sections 2 and 9). Lines, in order: the overall conversion rate
 * with its assessment (and Apple's rate beside it); App Store Browse conversion (very positive
 * above 1%); App Store Search conversion against 80% of the overall rate; the key
 * fluctuations, i.e. the dashboard sources whose first-time downloads changed by 10% or more
 * either way against the previous period (a source with no previous data has a change of 0 and
 * is never one). Browse and Search lines are left out when that source has no impressions.
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
    .filter((s) => Math.abs(s.changes.firstTimeDownloads) >= KEY_FLUCTUATION)
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
    if (t.impressions === 0) {
      lines.push(
        'No impressions were recorded in the selected period, so the conversion rate cannot be judged.',
      );
    } else {
      const r = formatPercent(rate);
      const apple = `by Apple's definition (total downloads / impressions) it is ${formatPercent(t.appleConversionRate)}`;
      switch (conversionAssessment) {
        case 'solid':
          lines.push(
            `The average conversion rate of ${r} (first-time downloads / impressions) is solid; ${apple}.`,
          );
          break;
        case 'typical':
          lines.push(
            `The average conversion rate of ${r} (first-time downloads / impressions) is typical for the App Store (3% to 5%); ${apple}.`,
          );
          break;
        case 'room_for_improvement':
          lines.push(
            `The average conversion rate of ${r} (first-time downloads / impressions) is below 3% and leaves room for improvement; ${apple}.`,
          );
          break;
      }
    }
    if (browse && browse.current.impressions > 0) {
      const r = formatPercent(browse.current.conversionRate);
      lines.push(
        browseVeryPositive
          ? `App Store Browse converts at ${r}, above 1%, which is very positive: featuring and category placements are turning views into downloads.`
          : `App Store Browse converts at ${r} (1% or less).`,
      );
    }
    if (search && search.current.impressions > 0 && t.impressions > 0) {
      const r = formatPercent(search.current.conversionRate);
      const overall = formatPercent(rate);
      lines.push(
        searchUnderperforming
          ? `App Store Search converts at ${r}, below 80% of the average rate (${overall}): search is underperforming; review the title, subtitle, keyword field and first three screenshots.`
          : `App Store Search converts at ${r}, at least 80% of the average rate (${overall}).`,
      );
    }
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
