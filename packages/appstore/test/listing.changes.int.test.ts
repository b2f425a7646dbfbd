/**
 * Change detection on store reads of one app on different days, through the replay server's
 * as-of day and the real store client and parsers: the project's CONSTRUCTED recordings (every
 * tracked field changes between their days) and the real recordings of the fixtures folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAppListing } from '@aso/contracts';
import { APPSTORE_FIXTURES_DIR } from './fixtures-dir';
import {
  CONSTRUCTED_APP,
  CONSTRUCTED_CHANGES,
  CONSTRUCTED_DAYS,
  CONSTRUCTED_RECORDINGS_DIR,
} from './recordings/constructed.recordings';
import { fetchAppListing } from '../src/client/store.client';
import { startReplayServer, type TReplayServer } from '../src/replay/replay.server';
import { detectListingChanges } from '../src/listing/listing.changes';

let store: TReplayServer;
beforeAll(async () => {
  store = await startReplayServer({
    port: 0,
    fixturesDir: [APPSTORE_FIXTURES_DIR, CONSTRUCTED_RECORDINGS_DIR],
  });
});
afterAll(() => store.close());

async function readAsOf(appId: string, day: string): Promise<TAppListing> {
  const { listing } = await fetchAppListing({
    appId,
    storefront: 'us',
    itunesOrigin: store.url,
    appStoreOrigin: store.url,
    headers: { 'x-replay-as-of': day },
    retry: { attempts: 1 },
  });
  return listing;
}

describe('constructed recordings of one app on three days', () => {
  it('finds exactly the fields that differ between consecutive days', async () => {
    const [d1, d2, d3] = CONSTRUCTED_DAYS;
    const [l1, l2, l3] = await Promise.all(
      [d1, d2, d3].map((d) => readAsOf(CONSTRUCTED_APP.appId, d)),
    );
    const first = detectListingChanges(l1!, l2!);
    expect(first.map((c) => c.field)).toEqual(CONSTRUCTED_CHANGES['2026-06-01']);
    expect(first.find((c) => c.field === 'title')).toMatchObject({
      before: 'Calm Notes: Journal & Mood',
      after: 'Calm Notes: Mood Journal',
    });
    expect(first.find((c) => c.field === 'screenshots.iphone')!.detail).toMatchObject({
      reordered: false,
      added: [expect.stringContaining('phone-4.png')],
      removed: [expect.stringContaining('phone-2.png')],
    });
    expect(first.find((c) => c.field === 'inAppEvents')!.detail).toEqual({
      started: ['6700000002'],
      ended: ['6700000001'],
    });
    expect(first.find((c) => c.field === 'categoryRank')).toMatchObject({
      before: '#48 in Health & Fitness',
      after: '#31 in Health & Fitness',
      detail: { delta: -17 },
    });
    expect(first.find((c) => c.field === 'rating')).toMatchObject({ before: 4.52, after: 4.61 });
    const second = detectListingChanges(l2!, l3!);
    expect(second.map((c) => c.field)).toEqual(CONSTRUCTED_CHANGES['2026-07-01']);
    expect(second.find((c) => c.field === 'price')).toMatchObject({
      before: { amount: 0, currency: 'USD' },
      after: { amount: 2.99, currency: 'USD', formatted: '$2.99' },
    });
    // The same day read twice: nothing.
    expect(detectListingChanges(l3!, await readAsOf(CONSTRUCTED_APP.appId, d3))).toEqual([]);
  });
});

describe('real recordings', () => {
  it('a read of the same recordings twice finds nothing', async () => {
    for (const appId of ['324684580', '389801252', '1570215232', '1585508533']) {
      const a = await readAsOf(appId, '2026-12-31');
      const b = await readAsOf(appId, '2026-12-31');
      expect(detectListingChanges(a, b), appId).toEqual([]);
    }
  });

  it('claims no change for fields a day without the lookup recording could not read', async () => {
    // Spotify's product page was captured in 2025-07, its lookup and reviews in 2026-06: on
    // 2025-07-31 only the page answers; by 2026-06-30 the lookup answers too. The page wins
    // where both have a field, so no tracked field differs.
    const july = await readAsOf('324684580', '2025-07-31');
    const june = await readAsOf('324684580', '2026-06-30');
    expect(july.storeData?.sources.lookup.status).toBe('not_found');
    expect(june.storeData?.sources.lookup.status).toBe('ok');
    expect(detectListingChanges(july, june)).toEqual([]);
  });
});
