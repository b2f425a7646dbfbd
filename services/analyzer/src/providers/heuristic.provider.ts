import { buildRecommendations } from '@aso/aso-rules';
import type { TAnalysisProvider } from './provider.types';

/**
 * The `heuristic` provider (default; offline and deterministic): every text comes from the
 * rules of `@aso/aso-rules`, already computed in `ctx.heuristic`.
 */
export const heuristicProvider: TAnalysisProvider = {
  name: 'heuristic',
  models: null,
  screenshots: async (ctx) => ({
    competitorScreenshotAnalyses: ctx.heuristic.competitorScreenshotAnalyses,
    mainScreenshotNotes: null,
  }),
  structured: async (ctx) => ctx.heuristic.structuredAnalysis,
  recommendations: async (_ctx, structured) => buildRecommendations(structured),
};
