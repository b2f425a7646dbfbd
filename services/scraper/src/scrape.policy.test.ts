import { describe, expect, it } from 'vitest';
import {
  AppNotFoundError,
  describeStoreError,
  StoreHttpError,
  StoreMalformedResponseError,
  StoreNetworkError,
  StoreRateLimitedError,
  StoreRedirectRefusedError,
  StoreResponseTooLargeError,
  StoreTimeoutError,
  StoreTruncatedResponseError,
  StoreUnavailableError,
  UnknownPageLayoutError,
  type TSourceReport,
} from '@aso/appstore/node';
import {
  planFailure,
  ScrapeInputError,
  snapshotDecision,
  validateScrapeTarget,
  type TFailureContext,
} from './scrape.policy';

describe('validateScrapeTarget (url_validation)', () => {
  const job = (appStoreUrl: string, appId = '324684580', storefront = 'us') => ({
    appId,
    storefront,
    appStoreUrl,
  });

  it('accepts the job URL and returns the normalised target', () => {
    expect(
      validateScrapeTarget(job('https://apps.apple.com/us/app/spotify-music/id324684580')),
    ).toEqual({
      appId: '324684580',
      storefront: 'us',
      appStoreUrl: 'https://apps.apple.com/us/app/spotify-music/id324684580?platform=iphone',
    });
    expect(
      validateScrapeTarget(
        job('https://apps.apple.com/GB/app/ID324684580?l=en', '324684580', 'GB'),
      ),
    ).toEqual({
      appId: '324684580',
      storefront: 'gb',
      appStoreUrl: 'https://apps.apple.com/gb/app/id324684580?platform=iphone&l=en',
      language: 'en',
    });
  });

  it.each([
    ['', 'Enter a valid App Store URL.'],
    ['not a url', 'Enter a valid App Store URL.'],
    ['https://apps.apple.com.evil.com/us/app/id324684580', 'Enter a valid App Store URL.'],
    ['https://apps.apple.com@evil.com/us/app/id324684580', 'Enter a valid App Store URL.'],
    ['https://apps.apple.com/us/app/spotify', "Couldn't extract an app ID from this URL."],
  ])('refuses %j with the URL rule message', (url, message) => {
    expect(() => validateScrapeTarget(job(url))).toThrow(new ScrapeInputError(message));
  });

  it('refuses a URL naming another app or storefront than the job', () => {
    expect(() => validateScrapeTarget(job('https://apps.apple.com/us/app/id1', '2'))).toThrow(
      'The app id 2 does not match the app id 1 of https://apps.apple.com/us/app/id1?platform=iphone',
    );
    expect(() =>
      validateScrapeTarget(job('https://apps.apple.com/fr/app/id324684580', '324684580', 'us')),
    ).toThrow(/storefront "us" does not match the storefront "fr"/);
  });
});

const ok = (url: string): TSourceReport => ({ url, status: 'ok', attempts: 1, httpStatus: 200 });

describe('snapshotDecision', () => {
  it('stores a scrape whose sources all answered, "not found" included', () => {
    expect(
      snapshotDecision({
        lookup: ok('l'),
        page: { url: 'p', status: 'not_found', attempts: 1, httpStatus: 404 },
        reviews: ok('r'),
      }),
    ).toEqual({ store: true });
  });

  it('does not store a listing built while a source failed, and says why', () => {
    const cause = new StoreHttpError('http://x/us/app/id1', 503, 3);
    expect(
      snapshotDecision({
        lookup: ok('l'),
        page: {
          url: 'p',
          status: 'failed',
          attempts: 3,
          httpStatus: 503,
          error: cause.message,
          cause,
        },
        reviews: { url: 'r', status: 'failed', attempts: 1, error: 'boom' },
      }),
    ).toEqual({ store: false, reason: 'not cached: product page HTTP 503, reviews feed boom' });
  });
});

describe('describeStoreError', () => {
  it.each([
    [new StoreHttpError('u', 502, 1), 'HTTP 502'],
    [new StoreRateLimitedError('u', 2000), 'rate limited (HTTP 429)'],
    [new StoreTimeoutError('u', 1500), 'no answer within 1500 ms'],
    [
      new StoreRedirectRefusedError('u', 'http://10.0.0.1:8080/admin?x=1'),
      'redirect to http://10.0.0.1:8080 refused (only the configured App Store origins are fetched)',
    ],
    [new StoreResponseTooLargeError('u', 1024), 'response larger than 1024 bytes'],
    [new StoreNetworkError('u', new Error('ECONNREFUSED')), 'store unreachable'],
    [new StoreTruncatedResponseError('u', 10, 20), 'response cut off'],
    [new StoreMalformedResponseError('u', 'iTunes lookup JSON', 'x'), 'malformed response'],
  ])('%s -> %j', (error, text) => {
    expect(describeStoreError(error)).toBe(text);
  });

  it('keeps the unknown-layout message whole (it names the markers looked for)', () => {
    const error = new UnknownPageLayoutError(['shoebox', 'serialized-server-data']);
    expect(describeStoreError(error)).toBe(error.message);
  });
});

describe('planFailure', () => {
  const ctx: TFailureContext = {
    appId: '1',
    storefront: 'us',
    attemptsMade: 0,
    attempts: 3,
    queuedAt: 1_000_000,
    now: 1_000_000,
    maxRateLimitWaitMs: 60_000,
  };

  it('fails at once for an unknown app and bad input', () => {
    expect(planFailure(new AppNotFoundError('1', 'us'), ctx)).toEqual({
      action: 'fail',
      message: 'App not found in the US App Store',
    });
    expect(planFailure(new ScrapeInputError('Enter a valid App Store URL.'), ctx)).toEqual({
      action: 'fail',
      message: 'Enter a valid App Store URL.',
    });
  });

  it('pauses the queue for the time the store asked, at least 1 s, within the wait budget', () => {
    expect(planFailure(new StoreRateLimitedError('u', 5_000), ctx)).toEqual({
      action: 'rate_limit',
      pauseMs: 5_000,
      message: 'The App Store is rate-limiting requests; waiting 5 s',
    });
    expect(planFailure(new StoreRateLimitedError('u', 10), ctx)).toMatchObject({ pauseMs: 1_000 });
    expect(
      planFailure(new StoreRateLimitedError('u', 600_000), { ...ctx, now: ctx.queuedAt + 50_000 }),
    ).toMatchObject({ action: 'rate_limit', pauseMs: 10_000 });
    expect(
      planFailure(new StoreRateLimitedError('u', 1_000), { ...ctx, now: ctx.queuedAt + 60_000 }),
    ).toEqual({
      action: 'fail',
      message: 'The App Store is rate-limiting requests for app 1 (US). Please try again later.',
    });
  });

  it('retries transient store failures and words the last one for the user', () => {
    const unavailable = new StoreUnavailableError('1', 'us', {
      lookup: new StoreHttpError('u', 500, 3),
      'product page': new StoreTimeoutError('u', 10_000),
    });
    const base =
      'Could not read the App Store data of app 1 (US): lookup: HTTP 500, product page: no answer within 10000 ms';
    expect(planFailure(unavailable, ctx)).toEqual({ action: 'retry', final: false, message: base });
    expect(planFailure(unavailable, { ...ctx, attemptsMade: 2 })).toEqual({
      action: 'retry',
      final: true,
      message: `${base}. Please try again later.`,
    });
  });

  it('fails at once when no source can succeed on a retry (refused redirects, unknown layout)', () => {
    const refused = new StoreUnavailableError('1', 'us', {
      lookup: new StoreRedirectRefusedError('u', 'http://evil.test/x'),
      'product page': new UnknownPageLayoutError(['a', 'b']),
    });
    expect(refused.retryable).toBe(false);
    expect(planFailure(refused, ctx)).toEqual({
      action: 'fail',
      message:
        'Could not read the App Store data of app 1 (US): lookup: redirect to http://evil.test refused ' +
        `(only the configured App Store origins are fetched), product page: ${new UnknownPageLayoutError(['a', 'b']).message}`,
    });
  });

  it('retries anything else (e.g. the database) with a generic message', () => {
    expect(planFailure(new Error('connection terminated'), { ...ctx, attempts: 1 })).toEqual({
      action: 'retry',
      final: true,
      message: 'The App Store data of app 1 (US) could not be read right now. Please try again.',
    });
  });
});
