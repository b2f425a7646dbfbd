import type { TAppListing, TSectionAnalysis } from '@aso/contracts';
import { clampScore } from './text.rules';

/**
 * Score 0-100 of a chart position in the app's category: top 10 -> 100, top 50 -> 80,
 * top 200 -> 60, charting lower -> 50; not ranked -> 40.
 */
export function rankScore(position: number | null): number {
  if (position === null) return 40;
  if (position <= 10) return 100;
  if (position <= 50) return 80;
  if (position <= 200) return 60;
  return 50;
}

/**
 * Category section: the category and the chart position ('#1 in Music'). When no source could
 * tell the rank ('N/A') the score is 50 with confidence 'low'. Competitors in other categories
 * are named (a less crowded category can be easier to rank in).
 */
export function categorySection(
  listing: Pick<TAppListing, 'category' | 'categoryRank' | 'chartPosition'>,
  competitors: ReadonlyArray<{ appName: string; category: string }>,
): TSectionAnalysis {
  const category = listing.category || 'unknown';
  const other = competitors.filter((c) => c.category && c.category !== listing.category);
  const otherText =
    other.length > 0
      ? ` Competitors in other categories: ${other.map((c) => `${c.appName} (${c.category})`).join(', ')}.`
      : '';
  if (listing.categoryRank === 'N/A' && !listing.chartPosition) {
    return {
      analysis: `Category: ${category}. The chart position could not be read (low confidence).${otherText}`,
      improvements: [
        "Check the category is the one where the app's audience browses, and where it can chart.",
      ],
      score: 50,
      confidence: 'low',
    };
  }
  const pos = listing.chartPosition?.position ?? null;
  const improvements: string[] = [];
  if (pos === null)
    improvements.push(
      'The app does not chart in its category: consider whether a less crowded category fits it.',
    );
  else if (pos > 10)
    improvements.push(
      'Climbing the category chart raises browse traffic: time updates and events to lift downloads.',
    );
  const rankText =
    pos === null
      ? 'It is not ranked in the category chart.'
      : `It ranks ${listing.categoryRank}${listing.chartPosition?.chart ? ` (${listing.chartPosition.chart})` : ''}.`;
  return {
    analysis: `Category: ${category}. ${rankText}${otherText}`,
    improvements,
    score: clampScore(rankScore(pos)),
    confidence: 'high',
  };
}
