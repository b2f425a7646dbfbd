import { describe, expect, it } from 'vitest';
import {
  SECTION_KEYS,
  type TAudit,
  type TKeywordItem,
  type TSectionAnalysis,
  type TStoreData,
} from '@aso/contracts';
import { formatAudit, formatStep, runCli } from './aso.cli';
import { parseCliEnv } from './env';
import { formatKeywords } from './keywords.cli';

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
      genreId: '6007',
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
    // The storefront's category, named in English beside it from its genre id.
    expect(text).toContain('Dev | 생산성 (Productivity) | rating not read');
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

describe('pnpm aso keywords', () => {
  // CONSTRUCTED tracked terms: read, absent, throttled before the first read, failed.
  const base: TKeywordItem = {
    id: '2f1c9a55-7c0e-4a4e-9d8e-5a1b2c3d4e5f',
    term: 'music player',
    appId: '324684580',
    storefront: 'us',
    rank: 8,
    previousRank: 14,
    bestRank: 8,
    change7d: 6,
    checkedAt: '2026-07-01T10:04:00.000Z',
    nextReadAt: '2026-07-02T10:00:00.000Z',
    resultCount: 60,
    source: 'itunes-search',
    lastError: null,
    throttledUntil: null,
    competitors: [
      { appId: '835599320', appName: 'TikTok', rank: null },
      { appId: '389801252', appName: 'Instagram', rank: 3 },
    ],
    popularity: { value: 62, label: 'estimate', signals: [] },
    difficulty: { value: 48, label: 'estimate', signals: [] },
    recent: [],
    createdAt: '2026-06-01T09:59:00.000Z',
  };
  const unread = {
    ...base,
    rank: null,
    bestRank: null,
    change7d: null,
    checkedAt: null,
    competitors: [],
    popularity: null,
    difficulty: null,
  };

  it('prints ranks, estimates and the best competitor, naming the order and the unread terms', () => {
    const text = formatKeywords({
      appId: '324684580',
      storefront: 'us',
      depth: 200,
      unread: ['podcast app'],
      items: [
        base,
        { ...base, term: 'music streaming', rank: null, change7d: -51, competitors: [] },
        { ...unread, term: 'podcast app', throttledUntil: '2026-07-01T14:05:00.000Z' },
        { ...unread, term: 'radio', lastError: 'The App Store answered HTTP 500' },
      ],
    });
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'App 324684580 in US: ranks in the iTunes Search API order (not always the order the App Store app shows), top 200.',
    );
    expect(lines[2]).toMatch(
      /^term\s+rank\s+7d\s+best\s+popularity est\.\s+difficulty est\.\s+top competitor$/,
    );
    expect(lines[3]!.split(/\s{2,}/)).toEqual([
      'music player',
      '#8',
      '+6',
      '#8',
      '62',
      '48',
      'Instagram #3',
    ]);
    expect(lines[4]!.split(/\s{2,}/)).toEqual([
      'music streaming',
      'not in top 200',
      '-51',
      '#8',
      '62',
      '48',
      '-',
    ]);
    expect(lines[5]).toContain('rate-limited, next read at 14:05 UTC');
    expect(lines[6]!.split(/\s{2,}/).slice(0, 2)).toEqual(['radio', 'error']);
    expect(lines[7]).toBe('  The App Store answered HTTP 500');
    expect(text).toContain('Read 2026-07-01 10:04 UTC.');
    expect(text).toContain('are estimates from the top results');
    expect(text).toContain('1 of 4 terms not read yet');
  });

  it('refuses bad usage with exit code 2 before any call', async () => {
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => err.push(t) };
    const env = parseCliEnv({});
    expect(await runCli(['keywords', 'https://apps.apple.com/us/app/id1'], env, io)).toBe(2);
    expect(err.at(-1)).toMatch(/^Give at least one --term/);
    expect(
      await runCli(
        ['keywords', 'https://apps.apple.com/us/app/id1', '--term', 'a', '--wait', 'soon'],
        env,
        io,
      ),
    ).toBe(2);
    expect(err.at(-1)).toMatch(/^--wait: /);
  });
});
