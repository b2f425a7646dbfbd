import type { TAnalysisProvider } from './provider.types';

/**
 * The `heuristic` provider (default; offline and deterministic): every text comes from the
 * rules of `@aso/aso-rules`, already computed in `ctx.heuristic`, competitor screenshot
 * analyses included.
 */
export const heuristicProvider: TAnalysisProvider = {
  name: 'heuristic',
  models: null,
  screenshots: async (ctx) => ({
    competitorScreenshotAnalyses: ctx.heuristic.competitorScreenshotAnalyses,
    competitorScreenshotSources: ctx.competitors.map(() => 'rules'),
    mainScreenshotNotes: null,
  }),
  structured: async (ctx) => ctx.heuristic.structuredAnalysis,
  recommendations: async (ctx) => ({
    recommendations: ctx.heuristic.recommendations,
    source: 'rules',
  }),
};
