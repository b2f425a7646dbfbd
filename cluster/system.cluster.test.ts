/**
 * The whole system on a Redis Cluster: `pnpm start`'s supervisor runs the api and the workers
 * as processes with `REDIS_CLUSTER_NODES` (no `REDIS_URL`), on a cluster of 3 masters and 3
 * replicas the test kit starts from the installed redis-server (or the one `REDIS_CLUSTER_NODES`
 * names, whatever its ports and topology). On a cluster of its own the processes get a single
 * replica as their only seed: ioredis learns every other node from it. An audit with its SSE
 * relay, an upload's merge, a watched listing's read and a keyword's read go through it end to
 * end, and every key they wrote is checked to be under the hash-tagged prefix and of a family
 * docs/ARCHITECTURE.md lists. The failover case (kill -9 of the master mid-audit) is in the
 * fault suite (faults/redis-cluster.fault.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUEUES } from '@aso/queue';
import {
  FAULT_APP_URL as SPOTIFY,
  FaultSystem,
  OwnRedisCluster,
  RECOVERY_BOUND_MS,
  REPO_ROOT,
  until,
  type TAuditEnd,
} from '@aso/testkit/system';

/** The recorded data (house rule: read in place, never copied). */
const FIXTURES_DIR = process.env.FIXTURES_DIR || join(REPO_ROOT, '../shared/fixtures');
const INSTAGRAM = 'https://apps.apple.com/us/app/instagram/id389801252';

/**
 * The key families the system writes (after `<prefix>:`), each with the text that names it in
 * docs/ARCHITECTURE.md's table of key families: a key of no family fails the test, so a new
 * family is listed (and its slot thought about) before it lands.
 */
const KEY_FAMILIES: Array<{ doc: string; key: RegExp }> = [
  {
    // BullMQ's keys of every queue of the catalog (wait, meta, events, jobs, locks, repeat...).
    doc: '`<p>:<queue>:wait`',
    key: new RegExp(`^(${Object.values(QUEUES).join('|')}):.+$`),
  },
  { doc: '`<p>:progress:<auditId>`', key: /^progress:[^:]+$/ },
  { doc: '`<p>:progress:<auditId>:terminal`', key: /^progress:[^:]+:terminal$/ },
  { doc: '`<p>:ratelimit:<rule>:<key digest>`', key: /^ratelimit:.+$/ },
  { doc: '`<p>:merge-user:<userId>`', key: /^merge-user:[^:]+$/ },
  { doc: '`<p>:merge-cancel:<jobId>`', key: /^merge-cancel:.+$/ },
  { doc: '`<p>:queue-board:token-key`', key: /^queue-board:token-key$/ },
];

let cluster: OwnRedisCluster;
let system: FaultSystem;
let token = '';

function expectCompletedOnce(audits: TAuditEnd[]): void {
  expect(audits.map((a) => [a.id, a.status, a.terminal])).toEqual(
    audits.map((a) => [a.id, 'done', ['complete']]),
  );
}

beforeAll(async () => {
  cluster = await OwnRedisCluster.start();
  // A cluster of its own: one replica as the only seed, the processes discover the rest. A
  // given cluster: the seeds as given.
  const replica = (await cluster.topology()).find((n) => n.role === 'replica' && !n.down);
  const clusterSeeds = cluster.owned && replica ? [replica] : cluster.nodes;
  console.log(
    `[cluster] Redis Cluster ${cluster.nodeList}${cluster.owned ? '' : ' (given)'}; seeds ${clusterSeeds.map((n) => `${n.host}:${n.port}`).join(',')}`,
  );
  system = await FaultSystem.start({ storeDelayMs: 300, cluster, clusterSeeds });
  token = (await system.newUser('cluster')).token;
});

afterAll(async () => {
  await system?.stop();
  await cluster?.stop();
});

describe('the system on a Redis Cluster', () => {
  it('keeps every key of the deployment in the slot of its hash-tagged prefix', async () => {
    expect(system.prefix).toMatch(/^\{cluster-[0-9a-f-]+\}$/);
    // The queues' keys and the processes' own keys exist by now (schedulers, meta, tokens):
    // every one of them is on the master of the prefix's slot, and none elsewhere.
    const slot = await cluster.slotOf(system.prefix);
    const master = await cluster.masterOf(slot);
    const keys = await cluster.keysOn(master, system.prefix);
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(await cluster.slotsOf(keys))).toEqual(new Set([slot]));
    const masters = (await cluster.topology()).filter((n) => n.role === 'master' && !n.down);
    for (const other of masters.filter((n) => n.id !== master.id))
      expect(await cluster.keysOn(other, system.prefix)).toEqual([]);
  });

  it('runs an audit with a competitor and relays its progress over SSE', async () => {
    const { id } = await system.api.analyze(token, {
      appStoreUrl: SPOTIFY,
      competitorUrl1: INSTAGRAM,
    });
    const messages = await system.readProgress(token, id, { timeoutMs: RECOVERY_BOUND_MS });
    const events = messages.map((m) => m.event);
    expect(events.filter((e) => e === 'step').length).toBeGreaterThan(5);
    expect(events.filter((e) => e === 'complete')).toHaveLength(1);
    expect(events.at(-1)).toBe('complete');
    expectCompletedOnce([await system.auditEnd(token, id, RECOVERY_BOUND_MS)]);
    const audit = await system.api.audit(token, id);
    expect(audit.status).toBe('done');
  });

  it('merges an upload of the two exports into one dataset', async () => {
    const user = await system.newUser('upload');
    const file = (name: string) => ({
      filename: name,
      bytes: readFileSync(join(FIXTURES_DIR, 'asc-analytics', name)),
    });
    const answer = await system.api.upload(user.token, {
      conversionCSV: file(
        'constructed_conversion_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
      ),
      redownloadsCSV: file(
        'constructed_redownloads_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
      ),
    });
    expect(answer.mergedData.totalRows).toBe(92);
    expect(await system.datasetIds(user.email)).toHaveLength(1);
  });

  it('reads a watched listing (the watch queue and its round scheduler)', async () => {
    const user = await system.newUser('watch');
    const call = async <T>(path: string, init?: RequestInit): Promise<T> => {
      const res = await fetch(`${system.apiUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    };
    type TItem = { id: string; lastCheckedAt: string | null; lastError: string | null };
    const item = await call<TItem>('/api/watchlist', {
      method: 'POST',
      body: JSON.stringify({ appStoreUrl: INSTAGRAM, role: 'competitor' }),
    });
    let read: TItem | undefined;
    await until(
      'the watched listing read',
      async () => {
        read = (await call<TItem[]>('/api/watchlist')).find((i) => i.id === item.id);
        return Boolean(read?.lastCheckedAt);
      },
      RECOVERY_BOUND_MS,
      250,
    );
    expect(read!.lastError).toBeNull();
    const redis = system.redisClient();
    try {
      // The scraper made the watch round's job scheduler under the tagged prefix.
      expect(await redis.exists(`${system.prefix}:scrape:repeat`)).toBe(1);
    } finally {
      redis.disconnect();
    }
  });

  it('tracks a keyword: its read goes through the keyword-search queue and the rank is stored', async () => {
    const user = await system.newUser('keyword');
    const call = async <T>(path: string, init?: RequestInit): Promise<T> => {
      const res = await fetch(`${system.apiUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    };
    type TItem = { term: string; rank: number | null; checkedAt: string | null; source: string };
    await call('/api/keywords', {
      method: 'POST',
      body: JSON.stringify({ appStoreUrl: INSTAGRAM, terms: ['photo sharing'] }),
    });
    let item: TItem | undefined;
    await until(
      'the keyword read',
      async () => {
        ({
          items: [item],
        } = await call<{ items: TItem[] }>('/api/keywords?appId=389801252&storefront=us'));
        return Boolean(item?.checkedAt);
      },
      RECOVERY_BOUND_MS,
      250,
    );
    // The replay server's /search answer for the term (CONSTRUCTED, packages/appstore/test/
    // recordings) lists Instagram third among its iOS apps.
    expect(item).toMatchObject({ term: 'photo sharing', rank: 3, source: 'itunes-search' });
    const reads = await system.database.db
      .selectFrom('keyword_reads as r')
      .innerJoin('keyword_terms as t', 't.id', 'r.term_id')
      .select(['r.app_ids', 'r.source'])
      .where('t.term', '=', 'photo sharing')
      .execute();
    expect(reads).toHaveLength(1);
    expect(reads[0]!.app_ids.indexOf('389801252')).toBe(2);
    const redis = system.redisClient();
    try {
      // The read went through the keyword-search queue of the tagged prefix.
      expect(await redis.exists(`${system.prefix}:keyword-search:meta`)).toBe(1);
    } finally {
      redis.disconnect();
    }
  });

  it('wrote every key under the prefix, each of a family docs/ARCHITECTURE.md lists', async () => {
    const architecture = readFileSync(join(REPO_ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    for (const family of KEY_FAMILIES) expect(architecture, family.doc).toContain(family.doc);
    const masters = (await cluster.topology()).filter((n) => n.role === 'master' && !n.down);
    const ours = (await Promise.all(masters.map((m) => cluster.keysOn(m, system.prefix)))).flat();
    const unlisted = ours
      .map((k) => k.slice(system.prefix.length + 1))
      .filter((k) => !KEY_FAMILIES.some((f) => f.key.test(k)));
    expect(unlisted).toEqual([]);
    // Only on a cluster of its own: a given one may hold other deployments' keys. A key family
    // written without the prefix would show here (and land in another slot).
    if (!cluster.owned) return;
    const all = (await Promise.all(masters.map((m) => cluster.keysOn(m, '')))).flat();
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((k) => !k.startsWith(`${system.prefix}:`))).toEqual([]);
  });
});
