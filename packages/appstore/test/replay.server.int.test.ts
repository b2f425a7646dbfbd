import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPSTORE_FIXTURES_DIR,
  appIdOf,
  fixtureFiles,
  pageFixtureFiles,
  readFixture,
} from './fixtures-dir';
import { CONSTRUCTED_APP, CONSTRUCTED_RECORDINGS_DIR } from './recordings/constructed.recordings';
import {
  CONSTRUCTED_HINTS,
  CONSTRUCTED_SEARCHES,
  constructedHintsAnswer,
  constructedSearchAnswer,
  SEARCH_APPS,
} from './recordings/constructed.search-recordings';
import { findScript, scanPage } from '../src/parsers/html-scan';
import { parseSearchAnswer, rankOf } from '../src/parsers/search.parser';
import { parseSearchHints } from '../src/parsers/search-hints.parser';
import { findSoftwareApplicationBlock } from '../src/parsers/json-ld.parser';
import { parseRecordingName, parseSearchRecordingName } from '../src/replay/fixture.index';
import { EMPTY_LOOKUP, startReplayServer, type TReplayServer } from '../src/replay/replay.server';

let server: TReplayServer;
beforeAll(async () => {
  server = await startReplayServer({ port: 0, fixturesDir: APPSTORE_FIXTURES_DIR });
});
afterAll(async () => {
  await server.close();
});

const get = (p: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${p}`, { headers, redirect: 'manual' });
const files = fixtureFiles();

describe('recording file names', () => {
  it('indexes the three served kinds and ignores the others', () => {
    expect(parseRecordingName('itunes-lookup_us_spotify_id324684580_2026-06.json')).toEqual({
      kind: 'itunes-lookup',
      storefront: 'us',
      slug: 'spotify',
      appId: '324684580',
      date: '2026-06',
      constructed: false,
    });
    expect(parseRecordingName('page2025-trimmed_kr_floating-clock_id1546947240.html')).toEqual({
      kind: 'page2025-trimmed',
      storefront: 'kr',
      slug: 'floating-clock',
      appId: '1546947240',
      date: '',
      constructed: false,
    });
    expect(parseRecordingName('page2025_jp_some-app_id123_2026-09.html')).toMatchObject({
      kind: 'page2025',
      date: '2026-09',
      constructed: false,
    });
    expect(
      parseRecordingName('constructed-media-api_us_calm-notes_id6450000001_2026-06-01.json'),
    ).toEqual({
      kind: 'media-api',
      storefront: 'us',
      slug: 'calm-notes',
      appId: '6450000001',
      date: '2026-06-01',
      constructed: true,
    });
    // Pages are HTML and answers JSON: a kind with the other extension is not served.
    expect(parseRecordingName('page2025_jp_some-app_id123_2026-09.json')).toBeNull();
    expect(parseRecordingName('itunes-lookup_us_x_id1_2026-06.html')).toBeNull();
    expect(parseRecordingName('itunes-lookup_us_mac-software_slack.json')).toBeNull();
    expect(
      parseRecordingName('itunes-search_us_travel-category-term_18-results_2026-06.json'),
    ).toBeNull();
  });
});

describe.each(files.filter((f) => f.startsWith('itunes-lookup_') && appIdOf(f)))(
  'lookup %s',
  (file) => {
    it('is answered verbatim, leading blank lines included', async () => {
      const res = await get(`/lookup?id=${appIdOf(file)}&country=us&entity=software`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toBe(readFixture(file));
      expect(text.startsWith('\n\n\n')).toBe(true);
    });
  },
);

describe.each(pageFixtureFiles())('recorded page %s', (file) => {
  const appId = appIdOf(file.replace(/\.html$/, '_'))!;
  const cc = /_([a-z]{2})_/.exec(file)![1]!;
  it('is served verbatim at the product page paths of its storefront, any query kept', async () => {
    for (const p of [
      `/${cc}/app/floating-clock/id${appId}`,
      `/${cc}/app/id${appId}?platform=iphone`,
      `/${cc}/app/id${appId}?l=en-GB`,
    ]) {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toBe(readFixture(file));
    }
  });

  it('cuts its server data in half under the malformed fault', async () => {
    const res = await get(`/${cc}/app/id${appId}`, { 'x-replay-malformed': '1' });
    const html = await res.text();
    const script = findScript(scanPage(html), 'id', 'serialized-server-data');
    expect(script).toBeDefined();
    expect(() => JSON.parse(script!.text) as unknown).toThrow();
    expect(html.endsWith('</html>')).toBe(true);
  });
});

describe('request log', () => {
  it('records each request path and query, in order', async () => {
    const before = server.requests.length;
    const started = Date.now();
    await get('/jp/app/id1546947240?l=ja');
    await get('/lookup?id=1546947240&country=jp&entity=software');
    const answered = server.requests.slice(before);
    expect(answered.every((r) => r.at >= started)).toBe(true);
    expect(answered.map(({ method, path, query }) => ({ method, path, query }))).toEqual([
      { method: 'GET', path: '/jp/app/id1546947240', query: { l: 'ja' } },
      {
        method: 'GET',
        path: '/lookup',
        query: { id: '1546947240', country: 'jp', entity: 'software' },
      },
    ]);
  });
});

describe.each(files.filter((f) => f.startsWith('media-api_')))('product page of %s', (file) => {
  const appId = appIdOf(file)!;
  it('embeds the recording verbatim in the Ember shoebox script, with JSON-LD', async () => {
    for (const p of [
      `/us/app/some-slug/id${appId}`,
      `/us/app/id${appId}`,
      `/us/app/id${appId}?platform=iphone`,
    ]) {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      const page = scanPage(await res.text());
      const shoebox = findScript(page, 'id', 'shoebox-media-api-cache-apps');
      expect(shoebox?.attributes.type).toBe('fastboot/shoebox');
      expect(shoebox?.text).toBe(readFixture(file));
      expect(findSoftwareApplicationBlock(page)).toMatchObject({ '@type': 'SoftwareApplication' });
    }
  });
});

describe.each(files.filter((f) => f.startsWith('reviews-rss_')))('reviews feed %s', (file) => {
  it('is answered at both path variants', async () => {
    const appId = appIdOf(file)!;
    for (const p of [
      `/us/rss/customerreviews/id=${appId}/sortby=mostrecent/json`,
      `/us/rss/customerreviews/page=1/id=${appId}/sortby=mostrecent/json`,
    ]) {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(readFixture(file));
    }
    const later = (await (
      await get(`/us/rss/customerreviews/page=2/id=${appId}/sortby=mostrecent/json`)
    ).json()) as {
      feed: { entry?: unknown };
    };
    expect(later.feed.entry).toBeUndefined();
  });
});

describe('unknown apps answer what Apple answers', () => {
  it('empty lookup, 404 page, feed without entries', async () => {
    expect(await (await get('/lookup?id=1&country=us')).text()).toBe(EMPTY_LOOKUP);
    expect(JSON.parse(EMPTY_LOOKUP)).toEqual({ resultCount: 0, results: [] });
    expect((await get('/us/app/id1')).status).toBe(404);
    // An app recorded only through the lookup API has no page either.
    expect((await get('/us/app/rivian/id1570215232')).status).toBe(404);
    // Other storefronts are separate recordings.
    expect(await (await get('/lookup?id=324684580&country=gb')).text()).toBe(EMPTY_LOOKUP);
    const feed = (await (
      await get('/us/rss/customerreviews/id=1/sortby=mostrecent/json')
    ).json()) as { feed: object };
    expect(feed.feed).not.toHaveProperty('entry');
  });
});

describe('fault injection', () => {
  it('status with fail-times counts per path: 429 then success', async () => {
    const h = {
      'x-replay-status': '429',
      'x-replay-fail-times': '1',
      'x-replay-retry-after': '2',
      'x-replay-fault-key': 'a',
    };
    const first = await get('/lookup?id=324684580', h);
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    expect((await get('/lookup?id=324684580', h)).status).toBe(200);
    // Another path has its own counter.
    expect((await get('/lookup?id=835599320', h)).status).toBe(429);
  });

  it('500 three times then success; query parameters work like headers', async () => {
    const q = 'replayStatus=500&replayFailTimes=3&replayFaultKey=b';
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await get(`/us/app/id324684580?${q}`)).status);
    expect(statuses).toEqual([500, 500, 500, 200]);
  });

  it('without fail-times the fault stays', async () => {
    for (let i = 0; i < 3; i += 1)
      expect((await get('/lookup?id=1', { 'x-replay-status': '503' })).status).toBe(503);
  });

  it('truncate sends half the announced body, then drops the connection', async () => {
    const res = await get('/us/rss/customerreviews/id=835599320/sortby=mostrecent/json', {
      'x-replay-truncate': '1',
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(
      Buffer.byteLength(readFixture('reviews-rss_us_tiktok_id835599320_2026-06.json')),
    );
    await expect(res.text()).rejects.toThrow();
  });

  it('malformed sends broken JSON, or a page whose shoebox JSON is cut', async () => {
    const text = await (await get('/lookup?id=324684580', { 'x-replay-malformed': 'true' })).text();
    expect(() => JSON.parse(text) as unknown).toThrow();
    const page = scanPage(await (await get('/us/app/id389801252?replayMalformed=1')).text());
    const shoebox = findScript(page, 'id', 'shoebox-media-api-cache-apps')!;
    expect(() => JSON.parse(shoebox.text) as unknown).toThrow();
  });

  it('delays an answer', async () => {
    const started = performance.now();
    expect((await get('/lookup?id=1', { 'x-replay-delay-ms': '150' })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('rejects a bad fault parameter by name', async () => {
    const res = await get('/lookup?id=1&replayDelayMs=soon');
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/replayDelayMs must be a non-negative integer/);
  });

  it('redirects on the test route and by header', async () => {
    const res = await get('/__redirect?to=http://elsewhere.invalid/x');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://elsewhere.invalid/x');
    const byHeader = await get('/lookup?id=1', {
      'x-replay-redirect': 'http://elsewhere.invalid/y',
    });
    expect(byHeader.headers.get('location')).toBe('http://elsewhere.invalid/y');
  });

  it('server-wide rules apply to matching paths until replaced', async () => {
    server.setFaults([{ pathIncludes: '/lookup', status: 500, failTimes: 1 }]);
    expect((await get('/lookup?id=1')).status).toBe(500);
    expect((await get('/lookup?id=1')).status).toBe(200);
    expect((await get('/us/app/id1')).status).toBe(404);
    server.setFaults([]);
  });
});

describe('adding a recording needs no code', () => {
  it('serves a file copied into its folder while running', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'replay-'));
    const own = await startReplayServer({ port: 0, fixturesDir: dir, defaultDelayMs: 5 });
    try {
      const first = await fetch(`${own.url}/lookup?id=1570215232&country=us`);
      expect(await first.text()).toBe(EMPTY_LOOKUP);
      const file = 'itunes-lookup_us_rivian_id1570215232_2026-06.json';
      copyFileSync(path.join(APPSTORE_FIXTURES_DIR, file), path.join(dir, file));
      const second = await fetch(`${own.url}/lookup?id=1570215232&country=us`);
      expect(await second.text()).toBe(readFixture(file));
      const health = (await (await fetch(`${own.url}/__health`)).json()) as {
        recordings: unknown[];
      };
      expect(health.recordings).toHaveLength(1);
      expect(own.requestCount).toBe(3);
    } finally {
      await own.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails to start on a folder that does not exist', async () => {
    await expect(
      startReplayServer({ port: 0, fixturesDir: path.join(tmpdir(), 'no-such-replay-dir') }),
    ).rejects.toThrow(/ENOENT/);
  });
});

describe('as of a day', () => {
  const calm = CONSTRUCTED_APP;
  const lookupOf = async (srv: TReplayServer, headers: Record<string, string> = {}, q = '') => {
    const res = await fetch(`${srv.url}/lookup?id=${calm.appId}&country=us${q}`, { headers });
    return res.text();
  };
  const recorded = (kind: string, day: string) =>
    readFileSync(
      path.join(
        CONSTRUCTED_RECORDINGS_DIR,
        `constructed-${kind}_us_${calm.slug}_id${calm.appId}_${day}.json`,
      ),
      'utf8',
    );

  it('serves the newest recording dated on or before the day, per request or server-wide', async () => {
    const srv = await startReplayServer({
      port: 0,
      fixturesDir: [APPSTORE_FIXTURES_DIR, CONSTRUCTED_RECORDINGS_DIR],
    });
    try {
      // Without a day: the newest.
      expect(await lookupOf(srv)).toBe(recorded('itunes-lookup', '2026-07-01'));
      // Per request (header or query), the day itself counts.
      expect(await lookupOf(srv, { 'x-replay-as-of': '2026-06-01' })).toBe(
        recorded('itunes-lookup', '2026-06-01'),
      );
      expect(await lookupOf(srv, {}, '&replayAsOf=2026-06-30')).toBe(
        recorded('itunes-lookup', '2026-06-01'),
      );
      // Before the first capture there is no such app yet.
      expect(await lookupOf(srv, { 'x-replay-as-of': '2026-04-30' })).toBe(EMPTY_LOOKUP);
      const page = await fetch(`${srv.url}/us/app/id${calm.appId}`, {
        headers: { 'x-replay-as-of': '2026-04-30' },
      });
      expect(page.status).toBe(404);
      // Server-wide, set in process or over HTTP; a request's own day wins.
      srv.setAsOf('2026-05-15');
      expect(await lookupOf(srv)).toBe(recorded('itunes-lookup', '2026-05-01'));
      const pageHtml = await (await fetch(`${srv.url}/us/app/id${calm.appId}`)).text();
      expect(pageHtml).toContain('Calm Notes: Journal & Mood');
      expect(pageHtml).not.toContain('Mood Journal');
      expect(await lookupOf(srv, { 'x-replay-as-of': '2026-06-02' })).toBe(
        recorded('itunes-lookup', '2026-06-01'),
      );
      const put = await fetch(`${srv.url}/__as-of?day=2026-06-01`, { method: 'PUT' });
      expect(await put.json()).toEqual({ asOf: '2026-06-01' });
      expect(srv.asOf).toBe('2026-06-01');
      expect(await lookupOf(srv)).toBe(recorded('itunes-lookup', '2026-06-01'));
      await fetch(`${srv.url}/__as-of`, { method: 'PUT' });
      expect(await lookupOf(srv)).toBe(recorded('itunes-lookup', '2026-07-01'));
      // A month-dated real recording counts from the month's first day.
      expect(await lookupOf(srv)).not.toBe(EMPTY_LOOKUP);
      const spotify = (day: string) =>
        fetch(`${srv.url}/lookup?id=324684580&country=us`, { headers: { 'x-replay-as-of': day } });
      expect(await (await spotify('2026-05-31')).text()).toBe(EMPTY_LOOKUP);
      expect(await (await spotify('2026-06-01')).text()).toBe(
        readFixture('itunes-lookup_us_spotify_id324684580_2026-06.json'),
      );
      const health = (await (await fetch(`${srv.url}/__health`)).json()) as {
        asOf: string | null;
        recordings: Array<{ constructed: boolean; date: string; appId: string }>;
      };
      expect(health.asOf).toBeNull();
      expect(health.recordings.filter((r) => r.constructed).map((r) => r.date)).toEqual([
        '2026-05-01',
        '2026-06-01',
        '2026-07-01',
        '2026-05-01',
        '2026-06-01',
        '2026-07-01',
      ]);
    } finally {
      await srv.close();
    }
  });

  it('refuses a day that is not YYYY-MM-DD', async () => {
    const srv = await startReplayServer({ port: 0, fixturesDir: CONSTRUCTED_RECORDINGS_DIR });
    try {
      const res = await fetch(`${srv.url}/lookup?id=${calm.appId}`, {
        headers: { 'x-replay-as-of': '2026-6-1' },
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('YYYY-MM-DD');
      expect((await fetch(`${srv.url}/__as-of?day=tomorrow`, { method: 'PUT' })).status).toBe(400);
      expect(() => srv.setAsOf('2026-13-45')).toThrow(/YYYY-MM-DD/);
      await expect(
        startReplayServer({ port: 0, fixturesDir: CONSTRUCTED_RECORDINGS_DIR, asOf: 'x' }),
      ).rejects.toThrow(/YYYY-MM-DD/);
    } finally {
      await srv.close();
    }
  });
});

describe('search answers', () => {
  it('names the term of each search recording', () => {
    expect(
      parseSearchRecordingName('itunes-search_us_mac-software_term-slack_39-results.json'),
    ).toEqual({
      storefront: 'us',
      termSlug: 'slack',
      date: '',
      constructed: false,
    });
    expect(
      parseSearchRecordingName('itunes-search_us_travel-category-term_18-results_2026-06.json'),
    ).toMatchObject({ termSlug: 'travel', date: '2026-06' });
    expect(
      parseSearchRecordingName('constructed-itunes-search_us_term-photo-sharing_2026-06-01.json'),
    ).toEqual({
      storefront: 'us',
      termSlug: 'photo-sharing',
      date: '2026-06-01',
      constructed: true,
    });
    expect(parseSearchRecordingName('itunes-search_us_no-term-here.json')).toBeNull();
  });

  it('answers /search from the recording of the term and storefront, verbatim; other terms and storefronts empty', async () => {
    const res = await get('/search?term=Travel&country=us&entity=software&limit=200');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      readFixture('itunes-search_us_travel-category-term_18-results_2026-06.json'),
    );
    expect(await (await get('/search?term=travel&country=gb&entity=software')).text()).toBe(
      EMPTY_LOOKUP,
    );
    expect(await (await get('/search?term=no+such+term&country=us')).text()).toBe(EMPTY_LOOKUP);
    expect(await (await get('/search?term=travel&country=us&replayAsOf=2026-05-31')).text()).toBe(
      EMPTY_LOOKUP,
    );
  });

  it.each(CONSTRUCTED_SEARCHES)(
    'serves the constructed answer for "$term" of $day with its apps at their declared ranks',
    async (search) => {
      const both = await startReplayServer({
        port: 0,
        fixturesDir: [APPSTORE_FIXTURES_DIR, CONSTRUCTED_RECORDINGS_DIR],
      });
      try {
        const q = new URLSearchParams({
          term: search.term,
          country: 'us',
          entity: 'software',
          replayAsOf: search.day ?? '2026-06-01',
        });
        const text = await (await fetch(`${both.url}/search?${q.toString()}`)).text();
        // The file on disk is what the generator writes today.
        expect(text).toBe(constructedSearchAnswer(search));
        const ids = parseSearchAnswer(text).results.map((r) => r.appId);
        expect(ids).toHaveLength(search.count);
        for (const [key, app] of Object.entries(SEARCH_APPS)) {
          const want = search.placed[key as keyof typeof SEARCH_APPS] ?? null;
          expect(rankOf(ids, app.id), `${key} for ${search.term}`).toBe(want);
        }
      } finally {
        await both.close();
      }
    },
  );

  it('answers the search hints of a constructed term in the storefront of X-Apple-Store-Front; none without it or for other terms', async () => {
    const both = await startReplayServer({
      port: 0,
      fixturesDir: [APPSTORE_FIXTURES_DIR, CONSTRUCTED_RECORDINGS_DIR],
    });
    try {
      const path = (term: string) =>
        `${both.url}/WebObjects/MZSearchHints.woa/wa/hints?clientApplication=Software&term=${encodeURIComponent(term)}`;
      const us = { 'x-apple-store-front': '143441-1,29' };
      const music = await fetch(path('Music'), { headers: us });
      expect(music.headers.get('content-type')).toContain('xml');
      const hint = CONSTRUCTED_HINTS.find((h) => h.term === 'music')!;
      expect(await music.text()).toBe(constructedHintsAnswer(hint.hints));
      expect(parseSearchHints(await (await fetch(path('music'), { headers: us })).text())).toEqual(
        hint.hints,
      );
      // The store gives nothing without the storefront header, or for another storefront.
      expect(parseSearchHints(await (await fetch(path('music'))).text())).toEqual([]);
      const gb = { 'x-apple-store-front': '143444-1,29' };
      expect(parseSearchHints(await (await fetch(path('music'), { headers: gb })).text())).toEqual(
        [],
      );
      expect(
        parseSearchHints(await (await fetch(path('photo sharing'), { headers: us })).text()),
      ).toEqual([]);
      const health = (await (await fetch(`${both.url}/__health`)).json()) as {
        hints: Array<{ term: string; constructed: boolean }>;
      };
      expect(health.hints).toContainEqual({
        storefront: 'us',
        term: 'music',
        date: '2026-06-01',
        constructed: true,
      });
    } finally {
      await both.close();
    }
  });

  it('serves the constructed answers beside the real ones, marked constructed', async () => {
    const both = await startReplayServer({
      port: 0,
      fixturesDir: [APPSTORE_FIXTURES_DIR, CONSTRUCTED_RECORDINGS_DIR],
    });
    try {
      const res = await fetch(`${both.url}/search?term=photo%20sharing&country=us&entity=software`);
      const body = (await res.json()) as { results: Array<{ trackId: number }> };
      expect(body.results[2]!.trackId).toBe(389801252);
      const health = (await (await fetch(`${both.url}/__health`)).json()) as {
        searches: Array<{ term: string; constructed: boolean }>;
      };
      expect(health.searches).toContainEqual(
        expect.objectContaining({ term: 'photo-sharing', constructed: true }),
      );
      expect(health.searches).toContainEqual(
        expect.objectContaining({ term: 'travel', constructed: false }),
      );
    } finally {
      await both.close();
    }
  });
});
