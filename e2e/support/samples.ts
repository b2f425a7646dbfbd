/**
 * The inputs the browser tests share: App Store links of recorded apps (`FIXTURES_DIR/appstore`)
 * and the sample App Store Connect exports (`FIXTURES_DIR/asc-analytics`, constructed files of
 * one invented app over the same days).
 */
import { join } from 'node:path';
import { DEFAULT_FIXTURES_DIR } from '@aso/appstore/node';

export const SPOTIFY_URL = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';
export const INSTAGRAM_URL = 'https://apps.apple.com/us/app/instagram/id389801252';

/** Folder of the sample App Store Connect exports. */
export const CSV_DIR = join(process.env.FIXTURES_DIR ?? DEFAULT_FIXTURES_DIR, 'asc-analytics');
/** A conversion rate export and its redownloads export, same app, territory and days. */
export const CONVERSION = join(
  CSV_DIR,
  'constructed_conversion_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
);
export const REDOWNLOADS = join(
  CSV_DIR,
  'constructed_redownloads_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
);
