/**
 * @aso/aso-rules: pure App Store listing rules (limits, keyword coverage, duplicates,
 * screenshots, ratings, in-app events, competitor gaps, scoring) used by the heuristic analyzer
 * and shown in the UI (DESIGN section 1). No I/O; browser-safe.
 */
export * from './limits.constants';
export * from './text.rules';
export * from './metadata.rules';
export * from './media.rules';
export * from './rating.rules';
export * from './in-app-events.rules';
export * from './category.rules';
export * from './audit.analyzer';
export * from './saved-audit-name.rules';
