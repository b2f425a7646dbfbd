/**
 * The snapshot repository of @aso/db against this file's own PostgreSQL database: cache
 * freshness by TTL, history order, the latest pair, the cache clear that keeps history. Rows hold CONSTRUCTED listings
 * (small objects); the worker test stores real ones.
 */
import { describe, expect } from 'vitest';
import { it } from '@aso/testkit/vitest';
import {
  findFreshSnapshot,
  findLatestSnapshotPair,
  insertSnapshot,
  listSnapshotHistory,
  retireSnapshotsForApp,
} from '@aso/db';

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe('snapshot repository', () => {
  it('finds the latest snapshot younger than the TTL, per app and storefront', async ({
    database,
  }) => {
    const { db } = database;
    const old = await insertSnapshot(db, {
      appId: '111',
      storefront: 'us',
      appName: 'Old name',
      fetchedAt: minutesAgo(120),
      sourceLayout: 'ember',
      listing: { appName: 'Old name' },
    });
    const recent = await insertSnapshot(db, {
      appId: '111',
      storefront: 'us',
      appName: 'New name',
      fetchedAt: minutesAgo(10),
      sourceLayout: 'none',
      listing: { appName: 'New name', nested: { list: [1, 2] } },
    });
    await insertSnapshot(db, {
      appId: '111',
      storefront: 'gb',
      appName: null,
      fetchedAt: minutesAgo(1),
      sourceLayout: 'ember',
      listing: {},
    });

    const fresh = await findFreshSnapshot(db, '111', 'us', 3600);
    expect(fresh?.id).toBe(recent.id);
    expect(fresh?.listing).toEqual({ appName: 'New name', nested: { list: [1, 2] } });
    expect(fresh?.source_layout).toBe('none');
    expect(fresh?.app_name).toBe('New name');
    // 10 minutes old is not younger than 5 minutes; a TTL of 0 turns the cache off.
    expect(await findFreshSnapshot(db, '111', 'us', 300)).toBeNull();
    expect(await findFreshSnapshot(db, '111', 'us', 0)).toBeNull();
    expect(await findFreshSnapshot(db, '111', 'fr', 3600)).toBeNull();
    expect(await findFreshSnapshot(db, '222', 'us', 3600)).toBeNull();
    // 3 hours covers the older one too, but the latest wins.
    expect((await findFreshSnapshot(db, '111', 'us', 3 * 3600))?.id).toBe(recent.id);

    const history = await listSnapshotHistory(db, '111', 'us');
    expect(history.map((r) => r.id)).toEqual([recent.id, old.id]);
    expect(await listSnapshotHistory(db, '111', 'us', 1)).toHaveLength(1);

    const pair = await findLatestSnapshotPair(db, '111', 'us');
    expect(pair?.latest.id).toBe(recent.id);
    expect(pair?.previous?.id).toBe(old.id);
    expect((await findLatestSnapshotPair(db, '111', 'gb'))?.previous).toBeNull();
    expect(await findLatestSnapshotPair(db, '333', 'us')).toBeNull();

    // Clearing an app's cache retires every storefront's snapshots from the cache, keeps them
    // as history and leaves other apps alone.
    await insertSnapshot(db, {
      appId: '444',
      storefront: 'us',
      appName: 'Other',
      fetchedAt: new Date(),
      sourceLayout: 'ember',
      listing: {},
    });
    expect(await retireSnapshotsForApp(db, '111')).toBe(3);
    expect(await retireSnapshotsForApp(db, '111')).toBe(0);
    expect(await findFreshSnapshot(db, '111', 'us', 3600)).toBeNull();
    expect(await findFreshSnapshot(db, '111', 'gb', 3600)).toBeNull();
    expect(await listSnapshotHistory(db, '111', 'us')).toHaveLength(2);
    expect(await listSnapshotHistory(db, '111', 'gb')).toHaveLength(1);
    expect(await listSnapshotHistory(db, '444', 'us')).toHaveLength(1);
    expect(await findFreshSnapshot(db, '444', 'us', 3600)).not.toBeNull();
  });
});
