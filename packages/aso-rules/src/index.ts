/**
 * @aso/aso-rules: pure App Store listing rules (limits, keyword coverage, duplicates,
 * screenshots, ratings, in-app events, description, updates, localization, reviews, size,
 * compatibility, competitor gaps, scoring) as a versioned catalogue used by the heuristic analyzer
 * and shown in the UI (docs/product.md#system-shape). No I/O; browser-safe.
 */
export * from './limits.constants';
export * from './text.helpers';
export * from './metadata.rules';
export * from './keyword-field.rules';
export * from './media.rules';
export * from './rating.rules';
export * from './in-app-events.rules';
export * from './category.rules';
export * from './rules.catalogue';
export * from './rule-outcome.helpers';
export * from './audit.scoring';
export * from './sections.constants';
export * from './device-names';
export * from './storefront-languages';
export * from './description.rules';
export * from './updates.rules';
export * from './localization.rules';
export * from './reviews.rules';
export * from './device.rules';
export * from './audit.analyzer';
export * from './saved-audit-name.builder';
export * from './keyword.estimates';
