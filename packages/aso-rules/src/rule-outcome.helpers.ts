import type {
  TAppListing,
  TListingField,
  TRuleOutcome,
  TSectionAnalysis,
  TSectionKey,
} from '@aso/contracts';
import { ruleById, sectionRules } from './rules.catalogue';

type TFacts = TRuleOutcome['facts'];

/** A passed rule. */
export function passed(id: string, message: string, facts: TFacts = {}): TRuleOutcome {
  const r = ruleById(id);
  return {
    id,
    version: r.version,
    severity: r.severity,
    status: 'passed',
    points: 0,
    facts,
    message,
  };
}

/**
 * A failed rule costing `points` (default: the rule's `maxPoints`; never more). Throws when
 * `points` exceeds the rule's maximum (a bug).
 */
export function failed(
  id: string,
  message: string,
  facts: TFacts = {},
  points?: number,
): TRuleOutcome {
  const r = ruleById(id);
  const cost = points ?? r.maxPoints;
  if (cost > r.maxPoints) throw new Error(`${id} costs at most ${r.maxPoints} points`);
  return {
    id,
    version: r.version,
    severity: r.severity,
    status: 'failed',
    points: cost,
    facts,
    message,
  };
}

/** A rule that does not concern this listing. */
export function notApplicable(id: string, message: string, facts: TFacts = {}): TRuleOutcome {
  const r = ruleById(id);
  return {
    id,
    version: r.version,
    severity: r.severity,
    status: 'not_applicable',
    points: 0,
    facts,
    message,
  };
}

/** A rule whose input could not be read. */
export function notJudged(id: string, message: string, facts: TFacts = {}): TRuleOutcome {
  const r = ruleById(id);
  return {
    id,
    version: r.version,
    severity: r.severity,
    status: 'not_judged',
    points: 0,
    facts,
    message,
  };
}

/** Every rule of `section` not judged, with one message. */
export function sectionNotJudged(section: TSectionKey, message: string): TRuleOutcome[] {
  return sectionRules(section).map((r) => notJudged(r.id, message));
}

/**
 * A section that is not judged: its input could not be read (`reason`, one sentence). No
 * score, low confidence, every rule of the section `not_judged`; `extra` adds the section's
 * `used`/`limit` or improvements.
 */
export function notJudgedSection(
  section: TSectionKey,
  analysis: string,
  reason: string,
  extra: Partial<Pick<TSectionAnalysis, 'improvements' | 'used' | 'limit'>> = {},
): TSectionAnalysis {
  return {
    analysis,
    improvements: [],
    score: null,
    confidence: 'low',
    rules: sectionNotJudged(section, reason),
    textSource: 'rules',
    ...extra,
  };
}

/**
 * Why listing field `field` could not be read from the store, for a "not judged" text: the
 * reason its store data record gives (e.g. 'not read from the 2025 page layout', 'product page:
 * HTTP 503'), or 'no source could read it' for listings stored before that record existed.
 */
export function unreadableWhy(
  listing: { storeData?: TAppListing['storeData'] },
  field: TListingField,
): string {
  return listing.storeData?.fields[field]?.reason ?? 'no source could read it';
}
