import {
  LISTING_FIELD_LABELS,
  LISTING_FIELDS,
  listingFieldState,
  type TAppListing,
  type TListingField,
  type TRuleOutcome,
  type TSectionAnalysis,
} from '@aso/contracts';
import { ruleById } from './rules.catalogue';
import { notJudged, unreadableWhy } from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import { listText } from './text.helpers';

type TJudgedListing = Pick<TAppListing, 'unknownFields'> &
  Partial<Pick<TAppListing, 'storeData'>> &
  Partial<Record<TListingField, unknown>>;

const isListingField = (name: string): name is TListingField =>
  (LISTING_FIELDS as readonly string[]).includes(name);

/**
 * The listing fields a rule reads (its catalogue `facts`, 'reviews.recent' counted as
 * `reviews`) that could not be read from the store. Facts of competitors and of the user's
 * input are not listing fields and never count.
 */
export function unreadRuleInputs(ruleId: string, listing: TJudgedListing): TListingField[] {
  const fields = ruleById(ruleId)
    .facts.map((f) => f.split('.')[0]!)
    .filter(isListingField);
  return [...new Set(fields)].filter((f) => listingFieldState(listing, f) === 'unreadable');
}

/** "the screenshots could not be read from the store (reason)", reasons grouped. */
function unreadPhrase(fields: readonly TListingField[], listing: TJudgedListing): string {
  const byReason = new Map<string, string[]>();
  for (const f of fields) {
    const why = unreadableWhy(listing, f);
    byReason.set(why, [...(byReason.get(why) ?? []), LISTING_FIELD_LABELS[f]]);
  }
  return [...byReason]
    .map(([why, labels]) => `the ${listText(labels)} could not be read from the store (${why})`)
    .join('; ');
}

const judgedStatus = (o: TRuleOutcome) => o.status === 'passed' || o.status === 'failed';

/**
 * No score without data (this product's rule: a score or a recommendation computed from a
 * placeholder would tell the user something the store never said). Applied to every section
 * after its rules ran:
 * - a passed or failed rule that reads a listing field which could not be read from the store
 *   becomes `not_judged` (no points);
 * - a section left with no passed or failed rule is not judged: score null, low confidence, no
 *   improvements, and its text says what could not be measured and why;
 * - a section judged on part of its rules keeps the score of those rules and names the rest.
 * Sections that are already not judged keep their text and lose their improvements.
 */
export function judgeOnReadInputs(
  section: TSectionAnalysis,
  listing: TJudgedListing,
): TSectionAnalysis {
  if (section.score === null) return { ...section, improvements: [] };
  const unread = new Set<TListingField>();
  const rules = section.rules.map((o) => {
    if (!judgedStatus(o)) return o;
    const missing = unreadRuleInputs(o.id, listing);
    if (missing.length === 0) return o;
    for (const f of missing) unread.add(f);
    return notJudged(o.id, `Not judged: ${unreadPhrase(missing, listing)}.`, o.facts);
  });
  const unreadText = unread.size > 0 ? unreadPhrase([...unread], listing) : null;
  if (!rules.some(judgedStatus)) {
    const why =
      unreadText ??
      `nothing this section scores could be measured on this listing (${[
        ...new Set(rules.map((o) => o.message.replace(/\.$/, ''))),
      ].join('; ')})`;
    return {
      ...section,
      analysis: `Not judged: ${why}.${unreadText === null && section.analysis ? ` ${section.analysis}` : ''}`,
      improvements: [],
      score: null,
      confidence: 'low',
      rules,
    };
  }
  if (unreadText === null) return section;
  return {
    ...section,
    analysis: `${section.analysis} Rules left out of the score: ${unreadText}.`,
    score: scoreOf(rules),
    rules,
  };
}
