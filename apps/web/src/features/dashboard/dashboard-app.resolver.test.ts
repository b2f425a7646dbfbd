import type { TWatchItem } from '@aso/contracts';
import { describe, expect, it } from 'vitest';
import { resolveWatchedApp, resolveWatchedAppById } from './dashboard-app.resolver';

function item(over: Partial<TWatchItem>): TWatchItem {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    appId: '1',
    storefront: 'us',
    language: null,
    role: 'mine',
    appName: 'Habit Tracker Pro',
    iconUrl: null,
    appStoreUrl: 'https://apps.apple.com/us/app/id1',
    lastCheckedAt: null,
    lastError: null,
    lastChangeAt: null,
    createdAt: '2025-07-01T00:00:00Z',
    ...over,
  };
}

const dataset = { appName: 'Habit Tracker Pro', territory: 'United States', downloadId: 'd1' };

describe('resolveWatchedApp', () => {
  const us = item({ appId: '1', storefront: 'us' });
  const gb = item({ appId: '1', storefront: 'gb', id: '00000000-0000-4000-8000-000000000002' });
  const rival = item({ appId: '9', role: 'competitor', appName: 'Habit Tracker Pro' });

  it('matches the one mine listing of the same name in the export territory', () => {
    const r = resolveWatchedApp({ ...dataset, watchedApp: null }, [gb, rival, us]);
    expect(r).toMatchObject({ item: us, how: 'matched' });
    // Competitors are never candidates; the territory's listings come first.
    expect(r.candidates).toEqual([us, gb]);
  });

  it('asks when nothing or more than one listing matches', () => {
    expect(
      resolveWatchedApp({ ...dataset, appName: 'Other', watchedApp: null }, [us]).item,
    ).toBeNull();
    expect(
      resolveWatchedApp({ ...dataset, territory: null, watchedApp: null }, [us]).item,
    ).toBeNull();
    const twin = item({ appId: '2', id: '00000000-0000-4000-8000-000000000003' });
    expect(resolveWatchedApp({ ...dataset, watchedApp: null }, [us, twin]).item).toBeNull();
  });

  it('prefers the listing the user chose, saved or remembered, while it is still watched', () => {
    expect(
      resolveWatchedApp({ ...dataset, watchedApp: { appId: '1', storefront: 'gb' } }, [us, gb]),
    ).toMatchObject({ item: gb, how: 'chosen' });
    expect(
      resolveWatchedApp({ ...dataset, watchedApp: null }, [us, gb], {
        appId: '1',
        storefront: 'gb',
      }).item,
    ).toBe(gb);
    // Chosen but no longer watched: back to matching.
    expect(
      resolveWatchedApp({ ...dataset, watchedApp: { appId: '7', storefront: 'us' } }, [us]).how,
    ).toBe('matched');
  });
});

describe('resolveWatchedAppById', () => {
  const us = item({ appId: '6450000001', storefront: 'us' });
  const gb = item({
    appId: '6450000001',
    storefront: 'gb',
    id: '00000000-0000-4000-8000-000000000002',
  });
  const other = item({ appId: '7', storefront: 'us', id: '00000000-0000-4000-8000-000000000003' });
  const rival = item({ appId: '6450000001', storefront: 'de', role: 'competitor' });

  it("takes the app's one mine listing by its Apple id, whatever its name", () => {
    const r = resolveWatchedAppById('6450000001', null, [other, { ...us, appName: 'Renamed' }]);
    expect(r.item?.storefront).toBe('us');
    expect(r.how).toBe('by-id');
    expect(r.candidates.map((w) => w.appId)).toEqual(['6450000001']);
  });

  it("prefers the territory filter's storefront, then the user's choice, and asks when unsure", () => {
    expect(resolveWatchedAppById('6450000001', 'GB', [us, gb]).item?.storefront).toBe('gb');
    expect(resolveWatchedAppById('6450000001', null, [us, gb]).item).toBeNull();
    const chosen = resolveWatchedAppById('6450000001', 'GB', [us, gb], {
      appId: '6450000001',
      storefront: 'us',
    });
    expect([chosen.item?.storefront, chosen.how]).toEqual(['us', 'chosen']);
    // A competitor listing of the same id is not the app's own.
    expect(resolveWatchedAppById('6450000001', 'DE', [rival]).candidates).toEqual([]);
  });
});
