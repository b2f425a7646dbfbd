import { describe, expect, it } from 'vitest';
import { SECTION_KEYS, type TAudit, type TSectionAnalysis, type TStoreData } from '@aso/contracts';
import { formatAudit, formatStep, runCli } from './aso.cli';
import { parseCliEnv } from './env';

describe('CLI helpers', () => {
  it('formats a step line', () => {
    expect(
      formatStep({
        step_id: 'scrape',
        status: 'in_progress',
        message: 'Scraped 1 of 3 apps',
        progress_pct: 33,
        started_at: null,
        ended_at: null,
      }),
    ).toBe(`… ${'scrape'.padEnd(24)} Scraped 1 of 3 apps (33%)`);
  });
  it('prints the store data line and the sections whose input could not be read', () => {
    // CONSTRUCTED audit of a page-only app.
    const storeData: TStoreData = {
      layout: '2025',
      pageLanguage: 'ko',
      requestedLanguage: null,
      sources: {
        lookup: { status: 'not_found', detail: null },
        page: { status: 'ok', detail: null },
        reviews: { status: 'ok', detail: null },
      },
      fields: {
        appName: { state: 'read', source: 'page:2025', reason: null },
        rating: { state: 'unreadable', source: null, reason: 'not found on the 2025 page' },
        reviewCount: {
          state: 'unreadable',
          source: null,
          reason: 'not found on the 2025 page',
        },
      },
    };
    const section: TSectionAnalysis = {
      analysis: 'x',
      improvements: [],
      score: 50,
      confidence: 'low',
      rules: [],
      textSource: 'rules',
    };
    const audit = {
      id: 'a',
      status: 'done',
      error: null,
      appId: '1',
      storefront: 'kr',
      appName: '플로팅 시계',
      subtitle: null,
      developer: 'Dev',
      category: '생산성',
      categoryRank: 'N/A',
      rating: '0',
      reviewCount: '0',
      keywords: null,
      description: '',
      iconUrl: null,
      previewVideoUrl: null,
      screenshots: [],
      appStoreUrl: 'https://apps.apple.com/kr/app/id1?platform=iphone',
      inAppEvents: [],
      competitorData: [],
      structuredAnalysis: null,
      overallScore: null,
      recommendations: null,
      provider: 'heuristic',
      storeData,
      ageRating: '전체',
      languages: ['한국어', '영어'],
      price: { amount: 0, currency: 'KRW', formatted: null },
      createdAt: '2026-01-01T00:00:00.000Z',
      completedAt: null,
    } satisfies TAudit;
    const text = formatAudit({
      ...audit,
      structuredAnalysis: Object.fromEntries(
        SECTION_KEYS.map((k) => [k, section]),
      ) as TAudit['structuredAnalysis'],
    });
    expect(text).toContain('Dev | 생산성 | rating not read');
    expect(text).toContain('age rating 전체 | price free (KRW) | languages: 한국어, 영어');
    expect(text).toContain(
      'Store data: 2025 page layout (ko), lookup: app not listed, reviews feed. Could not be read: rating, rating count (not found on the 2025 page).',
    );
    expect(text).toContain(
      '(input not read from the store: rating - not found on the 2025 page; rating count - not found on the 2025 page)',
    );
  });

  it('parses its environment with defaults', () => {
    expect(parseCliEnv({})).toMatchObject({
      ASO_API_URL: 'http://127.0.0.1:3000',
      ASO_HTTP_TIMEOUT_MS: 30_000,
    });
    expect(() => parseCliEnv({ ASO_API_URL: 'nope' })).toThrow(/ASO_API_URL/);
  });
  it('refuses bad usage with exit code 2 before any call', async () => {
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => err.push(t) };
    const env = parseCliEnv({});
    expect(await runCli([], env, io)).toBe(2);
    expect(
      await runCli(
        [
          'audit',
          'u',
          '--competitor',
          'a',
          '--competitor',
          'b',
          '--competitor',
          'c',
          '--competitor',
          'd',
        ],
        env,
        io,
      ),
    ).toBe(2);
    expect(err.at(-1)).toMatch(/At most 3 competitors/);
    expect(await runCli(['audit', 'u', '--nope'], env, io)).toBe(2);
  });
  it('names the missing sign-in variables', async () => {
    const err: string[] = [];
    expect(
      await runCli(['audit', 'https://apps.apple.com/us/app/id1'], parseCliEnv({}), {
        out: () => undefined,
        err: (t) => err.push(t),
      }),
    ).toBe(1);
    expect(err.at(-1)).toMatch(/ASO_EMAIL and ASO_ACCESS_CODE/);
  });
});
