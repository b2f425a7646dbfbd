import { describe, expect } from 'vitest';
import { createTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { analyzeListing, RULES_VERSION } from '@aso/aso-rules';
import { SECTION_KEYS, ZAuditResult, type TStepId } from '@aso/contracts';
import { findAudit } from '@aso/db';
import {
  enqueueAudit,
  eventsOf,
  INSTAGRAM,
  openAiEnv,
  SPOTIFY,
  startStack,
  TIKTOK,
  waitForTerminal,
} from './analysis.helpers';
import {
  startOpenAiCompatibleServer,
  TEST_USAGE,
  VALID_ANSWERS,
  type TAnswer,
  type TRecordedRequest,
} from './openai-compatible.server';

const ANALYSIS_STEPS: TStepId[] = [
  'ai_screenshot_analysis',
  'ai_structured_analysis',
  'ai_recommendations',
  'finalize',
];

describe('analysis job, heuristic provider', () => {
  it('audits Spotify against 2 recorded competitors and finalises once', async ({
    database,
    redis,
  }) => {
    const stack = await startStack(database, redis);
    try {
      const { userId } = await createTestUser(database.db, 'a@example.com');
      const auditId = await enqueueAudit(database.db, stack.producers, userId, {
        main: SPOTIFY,
        competitors: [INSTAGRAM, TIKTOK],
        keywords: 'music,podcast,radio',
      });
      const entries = await waitForTerminal(stack.bus, auditId);
      const types = entries.map((e) => e.event.type);
      expect(types.filter((t) => t === 'complete')).toHaveLength(1);
      expect(types.at(-1)).toBe('complete');
      expect(types).not.toContain('error');

      // Each analysis step in progress then done, in order, then `done`.
      const steps = eventsOf(entries, 'step').map((e) => `${e.step.step_id}:${e.step.status}`);
      expect(steps).toEqual([
        ...ANALYSIS_STEPS.flatMap((s) => [`${s}:in_progress`, `${s}:done`]),
        'done:done',
      ]);
      for (const e of eventsOf(entries, 'step')) {
        if (e.step.status === 'done') {
          expect(e.step.progress_pct).toBe(100);
          expect(Date.parse(e.step.ended_at!)).toBeGreaterThanOrEqual(
            Date.parse(e.step.started_at!),
          );
        }
      }

      const row = await findAudit(database.db, auditId);
      expect(row?.status).toBe('done');
      expect(row?.provider).toBe('heuristic');
      const result = ZAuditResult.parse(row?.result);
      expect(result.main.appId).toBe(SPOTIFY.appId);
      expect(result.competitors.map((c) => c.appId)).toEqual([INSTAGRAM.appId, TIKTOK.appId]);
      expect(row?.app_name).toBe(result.main.appName);
      // The stored analysis is exactly the rules' analysis of the stored listings (deterministic).
      const expected = analyzeListing({
        main: result.main,
        competitors: result.competitors,
        keywords: 'music,podcast,radio',
      });
      expect(result.structuredAnalysis).toEqual(expected.structuredAnalysis);
      expect(result.overallScore).toBe(expected.overallScore);
      expect(result.recommendations).toEqual(expected.recommendations);
      expect(result.competitorScreenshotAnalyses).toEqual(expected.competitorScreenshotAnalyses);
      expect(Object.keys(result.structuredAnalysis).sort()).toEqual([...SECTION_KEYS].sort());
    } finally {
      await stack.close();
    }
  });

  it('a second analysis job of a finished audit writes nothing and emits no second complete', async ({
    database,
    redis,
  }) => {
    const stack = await startStack(database, redis);
    try {
      const { userId } = await createTestUser(database.db, 'b@example.com');
      const auditId = await enqueueAudit(database.db, stack.producers, userId, {
        main: SPOTIFY,
        competitors: [],
        keywords: '',
      });
      await waitForTerminal(stack.bus, auditId);
      const before = await findAudit(database.db, auditId);
      const queue = stack.producers.queue('analysis');
      const again = await queue.add(
        'analysis',
        { auditId },
        { jobId: `${auditId}:analysis:again` },
      );
      await expect.poll(async () => await again.getState(), { timeout: 15_000 }).toBe('completed');
      await queue.close();
      const after = await findAudit(database.db, auditId);
      expect(after?.completed_at?.toISOString()).toBe(before?.completed_at?.toISOString());
      expect(after?.result).toEqual(before?.result);
      const entries = await stack.bus.read(auditId);
      expect(eventsOf(entries, 'complete')).toHaveLength(1);
    } finally {
      await stack.close();
    }
  });

  it('an unknown app fails the audit with the store message, once, without retries', async ({
    database,
    redis,
  }) => {
    const stack = await startStack(database, redis);
    try {
      const { userId } = await createTestUser(database.db, 'c@example.com');
      const unknown = {
        appId: '1',
        storefront: 'us',
        appStoreUrl: 'https://apps.apple.com/us/app/id1?platform=iphone',
      };
      const auditId = await enqueueAudit(database.db, stack.producers, userId, {
        main: unknown,
        competitors: [INSTAGRAM],
        keywords: '',
      });
      const entries = await waitForTerminal(stack.bus, auditId);
      const errors = eventsOf(entries, 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toBe('App not found in the US App Store');
      expect(eventsOf(entries, 'complete')).toHaveLength(0);
      const row = await findAudit(database.db, auditId);
      expect(row).toMatchObject({
        status: 'failed',
        error: 'App not found in the US App Store',
        result: null,
      });
      const scrape = stack.producers.queue('scrape');
      const child = await scrape.getJob(`${auditId}:scrape:1`);
      expect(child?.attemptsMade).toBe(1);
      expect(await child?.getState()).toBe('failed');
      await scrape.close();
    } finally {
      await stack.close();
    }
  });
});

describe('analysis job, openai provider against a local OpenAI-compatible server', () => {
  const valid = (req: TRecordedRequest): TAnswer => ({
    content: JSON.stringify(VALID_ANSWERS[req.schema]!(req)),
  });

  it('strict Structured Outputs: model texts, rules scores, screenshots sent as images, rewrites re-checked, usage recorded', async ({
    database,
    redis,
  }) => {
    const llm = await startOpenAiCompatibleServer(valid);
    const stack = await startStack(database, redis, openAiEnv(llm.baseURL));
    try {
      const { userId } = await createTestUser(database.db, 'd@example.com');
      const auditId = await enqueueAudit(database.db, stack.producers, userId, {
        main: SPOTIFY,
        competitors: [INSTAGRAM],
        keywords: '',
      });
      const entries = await waitForTerminal(stack.bus, auditId);
      expect(eventsOf(entries, 'complete')).toHaveLength(1);
      // No request was refused: every schema sent fits the strict subset.
      expect(llm.refused).toEqual([]);
      const row = await findAudit(database.db, auditId);
      expect(row?.provider).toBe('openai');
      const result = ZAuditResult.parse(row?.result);
      expect(result.models).toEqual({ text: 'test-text-model', vision: 'test-vision-model' });

      const rules = analyzeListing({
        main: result.main,
        competitors: result.competitors,
        keywords: '',
      });
      expect(result.rulesVersion).toBe(RULES_VERSION);
      for (const k of SECTION_KEYS) {
        expect(result.structuredAnalysis[k].analysis).toBe(`Model analysis of ${k}.`);
        expect(result.structuredAnalysis[k].textSource).toBe('model');
        expect(result.structuredAnalysis[k].score).toBe(rules.structuredAnalysis[k].score);
        expect(result.structuredAnalysis[k].rules).toEqual(rules.structuredAnalysis[k].rules);
        // A section not judged keeps no improvement, the model's included.
        if (rules.structuredAnalysis[k].score === null)
          expect(result.structuredAnalysis[k].improvements).toEqual([]);
        else
          expect(result.structuredAnalysis[k].improvements).toContain(
            `Model improvement for ${k}.`,
          );
      }
      expect(result.structuredAnalysis.icon.score).toBeNull();
      expect(result.structuredAnalysis.title.improvements).toContain(
        'Suggested title: "Spotify: Music & Podcasts"',
      );
      expect(result.structuredAnalysis.subtitle.improvements.join(' ')).not.toMatch(/Suggested/);
      expect(result.recommendations.map((r) => [r.priority, r.section])).toEqual([
        [1, 'screenshots'],
        [2, 'inAppEvents'],
      ]);
      expect(result.recommendationsSource).toBe('model');
      expect(result.competitorScreenshotSources).toEqual(['model']);
      expect(result.competitorScreenshotAnalyses[0]).toMatch(
        /^Model review of .*Instagram.* To improve: Lead with the main benefit; Shorten captions\.$/,
      );

      // 2 screenshot reviews, the structured analysis and the recommendations.
      expect(llm.requests).toHaveLength(4);
      expect(result.usage).toEqual({
        promptTokens: 4 * TEST_USAGE.prompt_tokens,
        completionTokens: 4 * TEST_USAGE.completion_tokens,
        totalTokens: 4 * TEST_USAGE.total_tokens,
        calls: 4,
      });
      expect([
        row?.prompt_tokens,
        row?.completion_tokens,
        row?.model_calls,
        row?.rules_version,
      ]).toEqual([
        4 * TEST_USAGE.prompt_tokens,
        4 * TEST_USAGE.completion_tokens,
        4,
        RULES_VERSION,
      ]);
      for (const r of llm.requests) {
        expect(r.body.response_format).toMatchObject({
          type: 'json_schema',
          json_schema: { strict: true },
        });
        expect(r.body.max_completion_tokens).toBe(4096);
      }

      // Vision calls carry the screenshots as image inputs (at most 5 per app), text calls the facts.
      const vision = llm.requests.filter((r) => r.schema === 'screenshot_review');
      expect(vision).toHaveLength(2);
      const mainImages = vision
        .flatMap((r) => r.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])))
        .filter((p) => p.type === 'image_url')
        .map((p) => p.image_url!.url);
      expect(mainImages.length).toBeGreaterThan(0);
      expect(
        mainImages.every(
          (u) =>
            result.main.screenshots.iphone!.screenshots.some((s) => s.url === u) ||
            result.competitors[0]!.screenshots.iphone?.screenshots.some((s) => s.url === u),
        ),
      ).toBe(true);
      expect(vision.every((r) => r.body.model === 'test-vision-model')).toBe(true);
      const structured = llm.requests.find((r) => r.schema === 'structured_analysis')!;
      expect(structured.body.model).toBe('test-text-model');
      expect(structured.authorization).toBe('Bearer sk-test-not-a-secret');
      expect(JSON.stringify(structured.body.messages)).toContain(
        `\\"used\\":${rules.facts.title.used}`,
      );
    } finally {
      await stack.close();
      await llm.close();
    }
  });

  it('JSON mode (OPENAI_RESPONSE_FORMAT=json_object): the schema goes in the prompt, answers are validated with zod', async ({
    database,
    redis,
  }) => {
    const llm = await startOpenAiCompatibleServer((req, n) =>
      // One answer of the wrong shape: validated, asked for once more, then used.
      req.schema === 'structured_analysis' && n === 1 ? { content: '{"title": 1}' } : valid(req),
    );
    const stack = await startStack(database, redis, {
      ...openAiEnv(llm.baseURL),
      OPENAI_RESPONSE_FORMAT: 'json_object',
    });
    try {
      const { userId } = await createTestUser(database.db, 'j@example.com');
      const auditId = await enqueueAudit(database.db, stack.producers, userId, {
        main: SPOTIFY,
        competitors: [],
        keywords: '',
      });
      await waitForTerminal(stack.bus, auditId);
      expect(llm.refused).toEqual([]);
      const result = ZAuditResult.parse((await findAudit(database.db, auditId))?.result);
      expect(result.structuredAnalysis.title.analysis).toBe('Model analysis of title.');
      expect(llm.requests.every((r) => r.body.response_format?.type === 'json_object')).toBe(true);
      expect(llm.requests.filter((r) => r.schema === 'structured_analysis')).toHaveLength(2);
      expect(JSON.stringify(llm.requests[0]!.body.messages)).toContain('matches this JSON Schema');
    } finally {
      await stack.close();
      await llm.close();
    }
  });
});
