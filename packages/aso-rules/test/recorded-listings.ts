import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TAppListing } from '@aso/contracts';
import {
  buildEmberPage,
  DEFAULT_FIXTURES_DIR,
  mergeListing,
  parseLookup,
  parseProductPage,
  parseReviewsFeed,
} from '@aso/appstore/node';

/** When the lookups and reviews were recorded (2026-06-24), for the rules that count days. */
export const RECORDED_AT = '2026-06-24T12:00:00.000Z';
/** When the Ember pages were recorded (their `x` timestamps, 2025-07-06). */
export const PAGE_RECORDED_AT = '2025-07-06T04:31:41.000Z';

const dir = () => path.join(process.env.FIXTURES_DIR || DEFAULT_FIXTURES_DIR, 'appstore');
const read = (file: string) => readFileSync(path.join(dir(), file), 'utf8');

/** The recorded apps: lookup, reviews feed and (for some) an Ember product page. */
export const RECORDED = {
  spotify: {
    appId: '324684580',
    slug: 'spotify',
    page: 'media-api_us_spotify_id324684580_2025-07.json',
  },
  tiktok: { appId: '835599320', slug: 'tiktok', page: null },
  rivian: { appId: '1570215232', slug: 'rivian', page: null },
  todo: { appId: '1585508533', slug: 'todo-list-widget', page: null },
} as const;

/**
 * The listing of a recorded US app as the scraper builds it from the recordings (real data,
 * read in place): its lookup, its reviews feed, and its Ember product page when `withPage`.
 */
export function recordedListing(app: keyof typeof RECORDED, withPage = false): TAppListing {
  const r = RECORDED[app];
  const lookup = parseLookup(read(`itunes-lookup_us_${r.slug}_id${r.appId}_2026-06.json`), r.appId);
  const page =
    withPage && r.page
      ? parseProductPage(buildEmberPage(read(r.page), r.appId), { appId: r.appId })
      : null;
  return mergeListing({
    appId: r.appId,
    storefront: 'us',
    lookup,
    page,
    reviews: parseReviewsFeed(read(`reviews-rss_us_${r.slug}_id${r.appId}_2026-06.json`)).summary,
    fetchedAt: page ? PAGE_RECORDED_AT : RECORDED_AT,
  });
}
