import {
  SECTION_KEYS,
  ZAppListing,
  ZAuditInputs,
  ZAuditResult,
  type TAppListing,
  type TAuditResult,
} from '@aso/contracts';
import { analyzeListing } from '@aso/aso-rules';
import { findAudit, finalizeAudit, markAuditRunning } from '@aso/db';
import { UnrecoverableError, type TJobHandler } from '@aso/queue';
import type { TWorkerDeps } from './worker.deps';
import { appendDoneStep, appendTerminalOnce, runStep } from './analysis.steps';
import { UsageMeter, type TAnalysisContext } from './providers/provider.types';

/** A failure a retry cannot fix, whose message is shown to the user as is. */
export class AnalysisFailure extends UnrecoverableError {
  constructor(message: string) {
    super(message);
    this.name = 'AnalysisFailure';
  }
}

/**
 * Reads the listings returned by the audit's `scrape` children (`job.getChildrenValues()`,
 * keyed by child job key): each value is a `TAppListing`, or an object carrying one under
 * `listing`. Values that are not listings are skipped. Returns them by app id.
 */
export function readChildListings(values: Record<string, unknown>): Map<string, TAppListing> {
  const out = new Map<string, TAppListing>();
  for (const value of Object.values(values)) {
    const candidate =
      value && typeof value === 'object' && 'listing' in value ? value.listing : value;
    const parsed = ZAppListing.safeParse(candidate);
    if (parsed.success) out.set(parsed.data.appId, parsed.data);
  }
  return out;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Builds the `analysis` job handler (docs/product.md#analysis-steps). It runs when every `scrape`
 * child completed, and:
 * 1. skips an audit already `failed`, and for one already `done` (a retried job) only makes
 *    sure its `complete` event exists;
 * 2. marks the audit `running`, reads the children's listings (main app and competitors, in
 *    the user's order) and computes the rule-based audit;
 * 3. runs `ai_screenshot_analysis` -> `ai_structured_analysis` -> `ai_recommendations` with
 *    the configured provider, each reported `in_progress` then `done` on the progress stream; a
 *    failed model call never fails the audit (the provider falls back to the rules' texts);
 * 4. `finalize` writes the result once (a conditional UPDATE: a retried or concurrent job
 *    cannot write twice) with the rules version and the model calls' token usage, then `done`
 *    and the `complete` event (appended at most once).
 *
 * Failures (store data missing, database or Redis down) are recorded by the worker's
 * `failed` hook (`createFailureHandler`).
 */
export function createAnalysisHandler(deps: TWorkerDeps): TJobHandler<'analysis'> {
  return async ({ auditId }, job, signal) => {
    const audit = await findAudit(deps.db, auditId);
    if (!audit) throw new UnrecoverableError(`audit ${auditId} does not exist`);
    if (audit.status === 'failed') return { auditId, status: 'failed' };
    if (audit.status === 'done') {
      await appendTerminalOnce(deps.redis, deps.bus, auditId, {
        type: 'complete',
        auditId,
        emittedAt: Date.now(),
      });
      return { auditId, status: 'done' };
    }
    await markAuditRunning(deps.db, auditId);

    const inputs = ZAuditInputs.parse(audit.inputs);
    const listings = readChildListings(await job.getChildrenValues());
    const main = listings.get(inputs.main.appId);
    if (!main)
      throw new AnalysisFailure(
        'The App Store data of the app could not be read. Please try again.',
      );
    const competitors = inputs.competitors.flatMap((c) => {
      const l = listings.get(c.appId);
      return l ? [l] : [];
    });

    const provider = await deps.provider();
    const usage = new UsageMeter();
    const ctx: TAnalysisContext = {
      main,
      competitors,
      keywords: inputs.keywords,
      heuristic: analyzeListing({ main, competitors, keywords: inputs.keywords }),
      signal,
      usage,
    };
    const apps = plural(1 + competitors.length, 'app');

    const shots = await runStep(
      deps.bus,
      auditId,
      'ai_screenshot_analysis',
      `Analyzing the screenshots of ${apps}`,
      () => provider.screenshots(ctx),
      () => `Analyzed the screenshots of ${apps}`,
    );
    const structured = await runStep(
      deps.bus,
      auditId,
      'ai_structured_analysis',
      `Analyzing ${SECTION_KEYS.length} sections of the listing`,
      () => provider.structured(ctx, shots),
      (s) => {
        const judged = SECTION_KEYS.filter((k) => s[k].score !== null).length;
        const rulesOnly =
          provider.name === 'openai'
            ? SECTION_KEYS.filter((k) => s[k].textSource === 'rules').length
            : 0;
        return (
          `Analyzed ${SECTION_KEYS.length} sections (${judged} judged): overall score ${ctx.heuristic.overallScore ?? 'not scored'}` +
          (ctx.heuristic.overallScore === null ? '' : '/100') +
          (rulesOnly > 0 ? `; ${plural(rulesOnly, 'section')} with the rules' text only` : '')
        );
      },
    );
    const recs = await runStep(
      deps.bus,
      auditId,
      'ai_recommendations',
      'Generating recommendations',
      () => provider.recommendations(ctx, structured),
      (r) => `Generated ${plural(r.recommendations.length, 'recommendation')}`,
    );
    const result: TAuditResult = ZAuditResult.parse({
      main,
      competitors,
      structuredAnalysis: structured,
      overallScore: ctx.heuristic.overallScore,
      recommendations: recs.recommendations,
      recommendationsSource: recs.source,
      competitorScreenshotAnalyses: shots.competitorScreenshotAnalyses,
      competitorScreenshotSources: shots.competitorScreenshotSources,
      provider: provider.name,
      models: provider.models,
      rulesVersion: ctx.heuristic.rulesVersion,
      usage: provider.name === 'openai' ? usage.snapshot() : null,
      generatedAt: new Date().toISOString(),
    });

    const wrote = await runStep(
      deps.bus,
      auditId,
      'finalize',
      'Finalizing the audit',
      () =>
        finalizeAudit(deps.db, auditId, {
          result,
          appName: main.appName,
          provider: provider.name,
          rulesVersion: result.rulesVersion ?? null,
          usage: result.usage ?? null,
        }),
      (w) => (w ? 'Audit saved' : 'Audit already saved'),
    );
    if (wrote)
      await appendDoneStep(
        deps.bus,
        auditId,
        'done',
        result.overallScore === null
          ? 'Audit complete: no section could be judged'
          : `Audit complete: overall score ${result.overallScore}/100`,
      );
    await appendTerminalOnce(deps.redis, deps.bus, auditId, {
      type: 'complete',
      auditId,
      emittedAt: Date.now(),
    });
    return { auditId, status: 'done', overallScore: result.overallScore };
  };
}
