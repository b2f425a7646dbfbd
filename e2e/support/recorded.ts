/**
 * Reads expected values straight from the recorded store answers (`FIXTURES_DIR/appstore`),
 * so the browser tests compare the screen with the recordings, not with constants.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FIXTURES_DIR } from '@aso/appstore/node';

const APPSTORE_DIR = join(process.env.FIXTURES_DIR ?? DEFAULT_FIXTURES_DIR, 'appstore');

/** Fields of one app's iTunes lookup recording. */
export interface TRecordedLookup {
  trackName: string;
  artistName: string;
  sellerName: string;
  primaryGenreName: string;
  averageUserRating: number;
  userRatingCount: number;
  description: string;
}

/** Fields of one app's product page (Media API shoebox) recording. */
export interface TRecordedPage {
  name: string;
  subtitle: string | null;
  ratingCount: number;
  rating: number;
}

/** The lookup recording of `file` (e.g. `itunes-lookup_us_spotify_id324684580_2026-06.json`). */
export function recordedLookup(file: string): TRecordedLookup {
  const data = JSON.parse(readFileSync(join(APPSTORE_DIR, file), 'utf8')) as {
    results: TRecordedLookup[];
  };
  const app = data.results[0];
  if (!app) throw new Error(`${file} has no result`);
  return app;
}

/** The product page recording of `file` (e.g. `media-api_us_spotify_id324684580_2025-07.json`). */
export function recordedPage(file: string): TRecordedPage {
  const outer = JSON.parse(readFileSync(join(APPSTORE_DIR, file), 'utf8')) as Record<
    string,
    string
  >;
  const inner = JSON.parse(Object.values(outer)[0] ?? '{}') as {
    d: {
      attributes: {
        name: string;
        userRating: { value: number; ratingCount: number };
        platformAttributes: { ios?: { subtitle?: string } };
      };
    }[];
  };
  const attributes = inner.d[0]?.attributes;
  if (!attributes) throw new Error(`${file} has no app record`);
  return {
    name: attributes.name,
    subtitle: attributes.platformAttributes.ios?.subtitle ?? null,
    ratingCount: attributes.userRating.ratingCount,
    rating: attributes.userRating.value,
  };
}
