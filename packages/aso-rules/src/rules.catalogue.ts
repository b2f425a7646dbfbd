import type { TRuleDefinition, TRulesCatalogue, TSectionKey } from '@aso/contracts';
import { LISTING_HEALTH_RULES } from './listing-health.catalogue';
import { METADATA_MEDIA_RULES } from './metadata-media.catalogue';

/**
 * The rules catalogue: every check the audit makes, as data (id, version, section, severity,
 * the most points it costs, the facts it reads and its source). A section's score is
 * `100 - sum(points of its failed rules)`, clamped to 0-100, so a score is a pure function of
 * the listing, the user's input and {@link RULES_VERSION}.
 */

/** Every rule, grouped by section in section order. */
export const RULES: readonly TRuleDefinition[] = [...METADATA_MEDIA_RULES, ...LISTING_HEALTH_RULES];

/**
 * Version of the whole catalogue, recorded by every audit. Raise it whenever a rule is added,
 * removed, or changes version; the catalogue test compares it with the rules' ids and versions.
 */
export const RULES_VERSION = '2.1.0';

const BY_ID = new Map(RULES.map((r) => [r.id, r]));

/** The rule with `id`; throws for an unknown id (a bug in a section function). */
export function ruleById(id: string): TRuleDefinition {
  const r = BY_ID.get(id);
  if (!r) throw new Error(`unknown rule ${id}`);
  return r;
}

/** The catalogue as `GET /api/rules` answers it. */
export function rulesCatalogue(): TRulesCatalogue {
  return { version: RULES_VERSION, rules: [...RULES] };
}

/** The rules of one section, in catalogue order. */
export function sectionRules(section: TSectionKey): TRuleDefinition[] {
  return RULES.filter((r) => r.section === section);
}
