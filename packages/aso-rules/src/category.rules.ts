import type { TAppListing, TSectionAnalysis } from '@aso/contracts';
import { failed, passed, notJudgedSection } from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';

/**
 * Points a chart position loses (rule `category.chart-position`): top 10 -> 0, top 50 -> 20,
 * top 200 -> 40, charting lower -> 50, not ranked -> 60.
 */
export function rankPoints(position: number | null): number {
  if (position === null) return 60;
  if (position <= 10) return 0;
  if (position <= 50) return 20;
  if (position <= 200) return 40;
  return 50;
}

/**
 * Category section, rule `category.chart-position`: the category and the chart position
 * ('#1 in Music'). When no source could tell the rank ('N/A') the section is not judged.
 * Competitors in other categories are named (a less crowded category can be easier to rank in).
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
    return notJudgedSection(
      'category',
      `Category: ${category}. Not judged: the chart position could not be read.${otherText}`,
      'The chart position could not be read.',
      {
        improvements: [
          "Check the category is the one where the app's audience browses, and where it can chart.",
        ],
      },
    );
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
  const facts = { category, position: pos };
  const points = rankPoints(pos);
  const rules = [
    points === 0
      ? passed('category.chart-position', rankText, facts)
      : failed('category.chart-position', rankText, facts, points),
  ];
  return {
    analysis: `Category: ${category}. ${rankText}${otherText}`,
    improvements,
    score: scoreOf(rules),
    confidence: 'high',
    rules,
    textSource: 'rules',
  };
}
