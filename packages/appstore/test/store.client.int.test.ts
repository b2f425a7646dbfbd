/**
 * The store client against the replay server (real HTTP on loopback, no mocks): every recorded
 * app, and the failure paths of docs/product.md#how-an-audit-runs.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  APPSTORE_FIXTURES_DIR,
  appIdOf,
  fixtureFiles,
  pageFixtureFiles,
  rawLookupResults,
  rawMediaApiApp,
  rawReviewEntries,
  readFixture,
} from './fixtures-dir';
import {
  AppNotFoundError,
  StoreRateLimitedError,
  StoreRedirectRefusedError,
  StoreTruncatedResponseError,
  StoreUnavailableError,
} from '../src/errors/store.errors';
import { startReplayServer, type TReplayServer } from '../src/replay/replay.server';
import { guardedFetch } from '../src/client/guarded-fetch';
import {
  fetchAppListing,
  parseRetryAfterMs,
  type TFetchAppListingOptions,
} from '../src/client/store.client';

/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment,
   @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- raw recordings are untyped JSON */

let store: TReplayServer;
beforeAll(async () => {
  store = await startReplayServer({ port: 0, fixturesDir: APPSTORE_FIXTURES_DIR });
});
afterAll(async () => {
  await store.close();
});
afterEach(() => {
  store.setFaults([]);
});

const FAST_RETRY = { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 };

function options(
  appId: string,
  extra: Partial<TFetchAppListingOptions> = {},
): TFetchAppListingOptions {
  return {
    appId,
    storefront: 'us',
    itunesOrigin: store.url,
    appStoreOrigin: store.url,
    timeoutMs: 5_000,
    retry: FAST_RETRY,
    ...extra,
  };
}

/** Fault headers with a fresh counter namespace. */
function fault(headers: Record<string, string>): Record<string, string> {
  return { 'x-replay-fault-key': randomUUID(), ...headers };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

const files = fixtureFiles();
const recordedApps = [
  ...new Set(
    files
      .filter((f) => f.startsWith('itunes-lookup_') || f.startsWith('media-api_'))
      .map(appIdOf)
      .filter((id): id is string => id !== null),
  ),
].sort();
const fileFor = (prefix: string, appId: string) =>
  files.find((f) => f.startsWith(prefix) && appIdOf(f) === appId);

describe.each(recordedApps)('recorded app %s', (appId) => {
  it('yields a listing whose fields equal the recorded data', async () => {
    const { listing, layout, sources } = await fetchAppListing(options(appId));
    const media = fileFor('media-api_us_', appId);
    const lookupFile = fileFor('itunes-lookup_us_', appId);
    const reviewsFile = fileFor('reviews-rss_us_', appId);

    expect(listing.appId).toBe(appId);
    expect(listing.storefront).toBe('us');
    expect(sources.page.status).toBe(media ? 'ok' : 'not_found');
    expect(sources.lookup.status).toBe(lookupFile ? 'ok' : 'not_found');
    expect(sources.reviews.status).toBe('ok');
    expect(listing.reviews?.count).toBe(reviewsFile ? rawReviewEntries(reviewsFile).length : 0);

    if (media) {
      const a = rawMediaApiApp(media).attributes;
      const ios = a.platformAttributes.ios;
      expect(layout).toBe('ember');
      expect(listing.appName).toBe(a.name);
      expect(listing.subtitle).toBe(ios.subtitle ?? null);
      expect(listing.developer).toBe(a.artistName);
      expect(listing.category).toBe(a.genreDisplayName);
      expect(Number(listing.rating).toFixed(2)).toBe(Number(a.userRating.value).toFixed(2));
      expect(listing.reviewCount).toBe(String(a.userRating.ratingCount));
      const chart = a.chartPositions?.appStore;
      expect(listing.categoryRank).toBe(
        chart ? `#${chart.position} in ${chart.genreName}` : 'Not ranked',
      );
      expect(listing.description.length).toBe(ios.description.standard.trim().length);
      expect(listing.inAppEvents).toHaveLength(
        rawMediaApiApp(media).relationships['app-events'].data.length,
      );
      expect(listing.fieldSources.appName).toBe('page:ember');
    } else {
      const r = rawLookupResults(lookupFile!)[0];
      expect(layout).toBe('none');
      expect(listing.appName).toBe(r.trackName);
      expect(listing.subtitle).toBeNull();
      expect(listing.developer).toBe(r.artistName);
      expect(listing.category).toBe(r.primaryGenreName);
      expect(Number(listing.rating).toFixed(2)).toBe(Number(r.averageUserRating).toFixed(2));
      expect(listing.reviewCount).toBe(String(r.userRatingCount));
      expect(listing.categoryRank).toBe('N/A');
      expect(listing.description.length).toBe(r.description.trim().length);
      expect(listing.screenshots.iphone?.screenshots.length ?? 0).toBe(r.screenshotUrls.length);
      expect(listing.screenshots.ipad?.screenshots.length ?? 0).toBe(r.ipadScreenshotUrls.length);
      expect(listing.version).toBe(r.version);
      expect(listing.fieldSources.appName).toBe('lookup');
      expect(listing.unknownFields).toEqual(
        expect.arrayContaining(['subtitle', 'categoryRank', 'previews', 'inAppEvents']),
      );
    }
  });
});

describe('the storefront drives every request', () => {
  // The request's arrival time is left out: these cases check where a read went, not when.
  const requestsSince = (from: number) =>
    store.requests.slice(from).map(({ method, path, query }) => ({ method, path, query }));

  it('a jp read asks the lookup for country=jp and fetches jp page and reviews paths', async () => {
    const from = store.requests.length;
    const error = await failure(fetchAppListing(options('1000000001', { storefront: 'jp' })));
    expect(error).toBeInstanceOf(AppNotFoundError);
    expect(error.message).toBe('App not found in the JP App Store');
    const seen = requestsSince(from);
    expect(seen).toEqual(
      expect.arrayContaining([
        {
          method: 'GET',
          path: '/lookup',
          query: { id: '1000000001', country: 'jp', entity: 'software' },
        },
        { method: 'GET', path: '/jp/app/id1000000001', query: {} },
        {
          method: 'GET',
          path: '/jp/rss/customerreviews/id=1000000001/sortby=mostrecent/json',
          query: {},
        },
      ]),
    );
    expect(seen.some((r) => r.path.startsWith('/us/') || r.query.country === 'us')).toBe(false);
  });

  it('keeps the ?l= language on the page request', async () => {
    const from = store.requests.length;
    await failure(fetchAppListing(options('1000000001', { storefront: 'ca', language: 'fr-CA' })));
    expect(requestsSince(from)).toContainEqual({
      method: 'GET',
      path: '/ca/app/id1000000001',
      query: { l: 'fr-CA' },
    });
  });

  it.each(pageFixtureFiles())('an app recorded only as a page still reads: %s', async (file) => {
    const appId = appIdOf(file.replace(/\.html$/, '_'))!;
    const cc = /_([a-z]{2})_/.exec(file)![1]!;
    const { listing, layout, sources, page } = await fetchAppListing(
      options(appId, { storefront: cc }),
    );
    expect(layout).toBe('2025');
    expect(sources.lookup.status).toBe('not_found');
    expect(sources.page.status).toBe('ok');
    expect(page?.missing).toEqual(expect.arrayContaining(['rating', 'description']));
    expect(listing.storefront).toBe(cc);
    expect(listing.appName).not.toBe('');
    expect(listing.storeData?.sources.lookup).toEqual({ status: 'not_found', detail: null });
    // What neither the trimmed page nor a lookup record gave stays unknown, with the reason.
    expect(listing.unknownFields).toEqual(
      expect.arrayContaining(['rating', 'description', 'screenshots', 'previews']),
    );
    expect(listing.storeData?.fields.description?.reason).toBe(
      'not found on the 2025 page; lookup: app not listed',
    );
  });
});

describe('failure paths', () => {
  it('429 then success: retried, listing built', async () => {
    const before = store.requestCount;
    const result = await fetchAppListing(
      options('324684580', {
        headers: fault({ 'x-replay-status': '429', 'x-replay-fail-times': '1' }),
      }),
    );
    expect(result.listing.appName).toBe('Spotify: Music and Podcasts');
    expect(result.sources.lookup.attempts).toBe(2);
    expect(result.sources.page.attempts).toBe(2);
    expect(store.requestCount - before).toBe(6);
  });

  it('500 three times then a clear failure', async () => {
    const error = await failure(
      fetchAppListing(
        options('324684580', {
          headers: fault({ 'x-replay-status': '500', 'x-replay-fail-times': '3' }),
        }),
      ),
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.message).toMatch(/App Store data for app 324684580 \(US\) could not be fetched/);
    expect(error.message).toMatch(/lookup: The App Store answered HTTP 500 .* \(3 attempts\)/);
    expect(error.message).toMatch(
      /product page: The App Store answered HTTP 500 .* \(3 attempts\)/,
    );
    expect((error as StoreUnavailableError).retryable).toBe(true);
  });

  it('500 twice then success within three attempts', async () => {
    const result = await fetchAppListing(
      options('389801252', {
        headers: fault({ 'x-replay-status': '500', 'x-replay-fail-times': '2' }),
      }),
    );
    expect(result.listing.appName).toBe('Instagram');
    expect(result.sources.page.attempts).toBe(3);
  });

  it('an unknown id fails at once with the documented message, without retries', async () => {
    const before = store.requestCount;
    const error = await failure(fetchAppListing(options('1')));
    expect(error).toBeInstanceOf(AppNotFoundError);
    expect(error.message).toBe('App not found in the US App Store');
    expect((error as AppNotFoundError).retryable).toBe(false);
    expect(store.requestCount - before).toBe(3);
    const gb = await failure(fetchAppListing(options('324684580', { storefront: 'GB' })));
    expect(gb.message).toBe('App not found in the GB App Store');
  });

  it('lookup says nothing and the page fails: not "not found" but unavailable', async () => {
    store.setFaults([{ pathIncludes: '/app/', status: 503 }]);
    const error = await failure(
      fetchAppListing(options('1', { retry: { ...FAST_RETRY, attempts: 2 } })),
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.message).toMatch(/product page: The App Store answered HTTP 503/);
  });

  it('a 429 asking for a longer pause than allowed surfaces as StoreRateLimitedError at once', async () => {
    const before = store.requestCount;
    const error = await failure(
      fetchAppListing(
        options('324684580', {
          headers: fault({ 'x-replay-status': '429', 'x-replay-retry-after': '120' }),
          retry: { ...FAST_RETRY, maxRetryAfterMs: 1_000 },
        }),
      ),
    );
    expect(error).toBeInstanceOf(StoreRateLimitedError);
    expect((error as StoreRateLimitedError).retryAfterMs).toBe(120_000);
    expect(store.requestCount - before).toBe(3);
  });

  it('only one source answers: the listing comes from it and names the unknown fields', async () => {
    store.setFaults([{ pathIncludes: '/app/', malformed: true }]);
    const { listing, layout, sources } = await fetchAppListing(options('324684580'));
    expect(layout).toBe('none');
    expect(sources.page.status).toBe('failed');
    expect(sources.page.error).toMatch(/Could not read the ember product page layout/);
    expect(listing.appName).toBe('Spotify: Music and Podcasts');
    expect(listing.rating).toBe('4.78');
    expect(listing.fieldSources.rating).toBe('lookup');
    expect(listing.unknownFields).toEqual(
      expect.arrayContaining(['subtitle', 'categoryRank', 'inAppEvents']),
    );
  });

  it('a redirect to another host is refused and never fetched', async () => {
    const other = await startReplayServer({ port: 0, fixturesDir: APPSTORE_FIXTURES_DIR });
    try {
      const target = `http://localhost:${other.port}/lookup?id=324684580`;
      const error = await failure(
        fetchAppListing(options('324684580', { headers: fault({ 'x-replay-redirect': target }) })),
      );
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error.message).toContain(`Refused to follow a redirect from ${store.url}/lookup`);
      expect(error.message).toContain(target);
      await expect(
        guardedFetch(`${store.url}/__redirect?to=${encodeURIComponent(target)}`, {
          allowedOrigins: [store.url],
          timeoutMs: 2_000,
          maxBytes: 1_000_000,
        }),
      ).rejects.toBeInstanceOf(StoreRedirectRefusedError);
      expect(other.requestCount).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('a redirect within the configured origins is followed', async () => {
    const res = await guardedFetch(
      `${store.url}/__redirect?to=${encodeURIComponent('/lookup?id=324684580&country=us')}`,
      {
        allowedOrigins: [store.url],
        timeoutMs: 2_000,
        maxBytes: 1_000_000,
      },
    );
    expect(res.status).toBe(200);
    expect(res.text).toBe(readFixture('itunes-lookup_us_spotify_id324684580_2026-06.json'));
  });

  it('a truncated body is a clear error', async () => {
    await expect(
      guardedFetch(`${store.url}/lookup?id=324684580&replayTruncate=1`, {
        allowedOrigins: [store.url],
        timeoutMs: 2_000,
        maxBytes: 1_000_000,
      }),
    ).rejects.toBeInstanceOf(StoreTruncatedResponseError);
    const error = await failure(
      fetchAppListing(
        options('324684580', {
          headers: fault({ 'x-replay-truncate': '1' }),
          retry: { ...FAST_RETRY, attempts: 2 },
        }),
      ),
    );
    expect(error.message).toMatch(/Response from .*\/lookup.* was cut off after \d+ of \d+ bytes/);
  });

  it('a malformed lookup answer is named as such', async () => {
    store.setFaults([
      { pathIncludes: '/lookup', malformed: true },
      { pathIncludes: '/app/', status: 404 },
    ]);
    const error = await failure(fetchAppListing(options('1570215232')));
    expect(error.message).toMatch(/Malformed iTunes lookup JSON from .*\/lookup\?id=1570215232/);
  });

  it('each request has a timeout', async () => {
    const error = await failure(
      fetchAppListing(
        options('324684580', {
          timeoutMs: 150,
          headers: fault({ 'x-replay-delay-ms': '3000' }),
          retry: { attempts: 1 },
        }),
      ),
    );
    expect(error.message).toMatch(/timed out after 150 ms/);
  });

  it("the caller's abort signal cancels everything and its reason is thrown", async () => {
    const controller = new AbortController();
    const reason = new Error('job cancelled');
    setTimeout(() => controller.abort(reason), 50);
    const error = await failure(
      fetchAppListing(
        options('324684580', {
          signal: controller.signal,
          headers: fault({ 'x-replay-delay-ms': '3000' }),
        }),
      ),
    );
    expect(error).toBe(reason);
  });

  it('response size is capped', async () => {
    const error = await failure(fetchAppListing(options('389801252', { maxBytes: 10_000 })));
    expect(error.message).toMatch(/larger than the 10000-byte limit/);
  });

  it('bad options are named', async () => {
    await expect(fetchAppListing(options('12a'))).rejects.toThrow(/appId must be digits/);
    await expect(fetchAppListing(options('1', { storefront: 'usa' }))).rejects.toThrow(
      /"usa" is not an App Store storefront/,
    );
    await expect(
      fetchAppListing(options('1', { appStoreOrigin: 'ftp://apps.apple.com' })),
    ).rejects.toThrow(/appStoreOrigin must use http or https/);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfterMs('3')).toBe(3000);
    expect(
      parseRetryAfterMs(
        'Wed, 21 Oct 2026 07:28:10 GMT',
        Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'),
      ),
    ).toBe(10_000);
    expect(parseRetryAfterMs(null)).toBeNull();
    expect(parseRetryAfterMs('soon')).toBeNull();
  });
});
