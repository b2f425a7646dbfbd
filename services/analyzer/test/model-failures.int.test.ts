/**
 * Every way a model call fails, against the local OpenAI-compatible server: the audit still
 * completes, with the rules' texts labelled `textSource: 'rules'` and the reason, where the
 * model gave nothing usable.
 */
import { describe, expect } from 'vitest';
import { createTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { analyzeListing } from '@aso/aso-rules';
import { SECTION_KEYS, ZAuditResult } from '@aso/contracts';
import { findAudit } from '@aso/db';
import {
  enqueueAudit,
  eventsOf,
  INSTAGRAM,
  openAiEnv,
  SPOTIFY,
  startStack,
  waitForTerminal,
} from './analysis.helpers';
import {
  startOpenAiCompatibleServer,
  VALID_ANSWERS,
  type TAnswer,
  type TRecordedRequest,
} from './openai-compatible.server';

const valid = (req: TRecordedRequest): TAnswer => ({
  content: JSON.stringify(VALID_ANSWERS[req.schema]!(req)),
});

type TCase = {
  name: string;
  /** The answer to every `structured_analysis` call (`n` counts them). */
  structured: (n: number) => TAnswer;
  /** `structured_analysis` calls expected. */
  calls: number;
  /** null: the model's texts are used; else the reason shown with the rules' texts. */
  reason: string | null;
};

const CASES: TCase[] = [
  {
    name: 'a refusal (message.refusal)',
    structured: () => ({ refusal: "I'm sorry, I cannot assist with that request." }),
    calls: 1,
    reason: 'the model refused to answer',
  },
  {
    name: 'finish_reason "length"',
    structured: () => ({ content: '{"title": {"analysis": "cut', finishReason: 'length' }),
    calls: 1,
    reason: 'the answer was cut off at the output token limit',
  },
  {
    name: 'finish_reason "content_filter"',
    structured: () => ({ content: '', finishReason: 'content_filter' }),
    calls: 1,
    reason: "the answer was withheld by the provider's content filter",
  },
  {
    name: 'a timeout (no answer within OPENAI_TIMEOUT_MS, retried once)',
    structured: () => ({ delayMs: 4_000, content: '{}' }),
    calls: 2,
    reason: 'the model did not answer in time',
  },
  {
    name: 'a dropped connection (retried once)',
    structured: () => ({ dropConnection: true }),
    calls: 2,
    reason: 'the model call failed',
  },
  {
    name: 'a 429 that persists after the retry',
    structured: () => ({ status: 429, headers: { 'retry-after': '0' } }),
    calls: 2,
    reason: 'the AI provider is rate-limiting requests',
  },
  {
    name: 'a 429 with retry-after, then an answer',
    structured: (n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '1' } }
        : { content: JSON.stringify(VALID_ANSWERS.structured_analysis!({} as TRecordedRequest)) },
    calls: 2,
    reason: null,
  },
  {
    name: 'a 5xx that persists after the retry',
    structured: () => ({ status: 503 }),
    calls: 2,
    reason: 'the AI provider had a server error',
  },
  {
    name: 'a 500, then an answer',
    structured: (n) =>
      n === 1
        ? { status: 500 }
        : { content: JSON.stringify(VALID_ANSWERS.structured_analysis!({} as TRecordedRequest)) },
    calls: 2,
    reason: null,
  },
  {
    name: 'unparseable content, twice',
    structured: () => ({ content: '{"title": "not an object"' }),
    calls: 2,
    reason: 'the answer could not be read, twice',
  },
];

describe('a failed model call never fails the audit', () => {
  it.for(CASES)('$name', async ({ structured, calls, reason }, { database, redis }) => {
    const llm = await startOpenAiCompatibleServer((req, n) =>
      req.schema === 'structured_analysis' ? structured(n) : valid(req),
    );
    const stack = await startStack(
      database,
      redis,
      openAiEnv(llm.baseURL, { OPENAI_TIMEOUT_MS: '1000', OPENAI_MAX_RETRIES: '1' }),
    );
    try {
      const { userId } = await createTestUser(database.db);
      const auditId = await enqueueAudit(database.db, stack.producers, userId, {
        main: SPOTIFY,
        competitors: [],
        keywords: '',
      });
      const entries = await waitForTerminal(stack.bus, auditId, 60_000);
      expect(eventsOf(entries, 'error')).toEqual([]);
      expect(eventsOf(entries, 'complete')).toHaveLength(1);
      expect(llm.refused).toEqual([]);
      expect(llm.requests.filter((r) => r.schema === 'structured_analysis')).toHaveLength(calls);
      const row = await findAudit(database.db, auditId);
      expect(row?.status).toBe('done');
      const result = ZAuditResult.parse(row?.result);
      const rules = analyzeListing({ main: result.main, competitors: [], keywords: '' });
      for (const k of SECTION_KEYS) {
        const s = result.structuredAnalysis[k];
        expect(s.score).toBe(rules.structuredAnalysis[k].score);
        if (reason === null) {
          expect([s.textSource, s.analysis]).toEqual(['model', `Model analysis of ${k}.`]);
        } else {
          expect([s.textSource, s.fallbackReason, s.analysis]).toEqual([
            'rules',
            reason,
            rules.structuredAnalysis[k].analysis,
          ]);
        }
      }
      // The other calls still gave the model's texts.
      expect(result.recommendationsSource).toBe('model');
    } finally {
      await stack.close();
      await llm.close();
    }
  });

  it('a failed screenshot review falls back to the rules text for that competitor only', async ({
    database,
    redis,
  }) => {
    const llm = await startOpenAiCompatibleServer((req) =>
      req.schema === 'screenshot_review' && JSON.stringify(req.body.messages).includes('Instagram')
        ? { refusal: 'No.' }
        : valid(req),
    );
    const stack = await startStack(database, redis, openAiEnv(llm.baseURL));
    try {
      const { userId } = await createTestUser(database.db, 'shots@example.com');
      const auditId = await enqueueAudit(database.db, stack.producers, userId, {
        main: SPOTIFY,
        competitors: [INSTAGRAM],
        keywords: '',
      });
      await waitForTerminal(stack.bus, auditId, 60_000);
      const result = ZAuditResult.parse((await findAudit(database.db, auditId))?.result);
      const rules = analyzeListing({
        main: result.main,
        competitors: result.competitors,
        keywords: '',
      });
      expect(result.competitorScreenshotSources).toEqual(['rules']);
      expect(result.competitorScreenshotAnalyses).toEqual(rules.competitorScreenshotAnalyses);
      expect(result.structuredAnalysis.title.textSource).toBe('model');
    } finally {
      await stack.close();
      await llm.close();
    }
  });

  it('failed recommendations fall back to the rules recommendations', async ({
    database,
    redis,
  }) => {
    const llm = await startOpenAiCompatibleServer((req) =>
      req.schema === 'recommendations'
        ? {
            status: 400,
            body: {
              error: { message: 'bad', type: 'invalid_request_error', param: null, code: null },
            },
          }
        : valid(req),
    );
    const stack = await startStack(database, redis, openAiEnv(llm.baseURL));
    try {
      const { userId } = await createTestUser(database.db, 'recs@example.com');
      const auditId = await enqueueAudit(database.db, stack.producers, userId, {
        main: SPOTIFY,
        competitors: [],
        keywords: '',
      });
      await waitForTerminal(stack.bus, auditId, 60_000);
      const result = ZAuditResult.parse((await findAudit(database.db, auditId))?.result);
      expect(result.recommendationsSource).toBe('rules');
      expect(result.recommendations.length).toBeGreaterThan(0);
      expect(llm.requests.filter((r) => r.schema === 'recommendations')).toHaveLength(1);
    } finally {
      await stack.close();
      await llm.close();
    }
  });
});
