/**
 * The fault suite's Redis Cluster case: the whole system (`pnpm start`'s supervisor, every
 * service a process) with `REDIS_CLUSTER_NODES` on a cluster of 3 masters and 3 replicas the
 * test kit starts from the installed redis-server (or the cluster `REDIS_CLUSTER_NODES` names,
 * whatever its ports and topology), and kill -9 of the master holding the deployment's slot
 * mid-audit. Its replica is promoted and every audit completes exactly once: one `complete`
 * in its progress stream, and in PostgreSQL one change to `done` and one result write. The
 * failover and recovery times are printed, not asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FaultSystem,
  killClusterMasterMidAudit,
  OwnRedisCluster,
  type TAuditEnd,
} from '@aso/testkit/system';

let cluster: OwnRedisCluster;
let system: FaultSystem;
let token = '';

beforeAll(async () => {
  cluster = await OwnRedisCluster.start();
  console.log(`[faults] Redis Cluster ${cluster.nodeList}${cluster.owned ? '' : ' (given)'}`);
  // Every store answer takes 1 s: the scrapes are in flight when the master is killed.
  system = await FaultSystem.start({ storeDelayMs: 1_000, cluster });
  token = (await system.newUser('cluster-failover')).token;
}, 300_000);

afterAll(async () => {
  await system?.stop();
  await cluster?.stop();
}, 60_000);

/** Every audit ended done with exactly one `complete` event in its stream. */
function expectCompletedOnce(audits: TAuditEnd[]): void {
  expect(audits.map((a) => [a.id, a.status, a.terminal])).toEqual(
    audits.map((a) => [a.id, 'done', ['complete']]),
  );
}

describe('fault suite on a Redis Cluster', () => {
  it('kill -9 of the master holding the audit queue mid-audit: its replica takes over, every audit completes once', async () => {
    let outcome;
    try {
      outcome = await killClusterMasterMidAudit(system, token);
    } catch (err) {
      // The workers' last lines say where an audit stopped (the api's polling would fill them).
      const workers = system.log
        .split('\n')
        .filter((l) => !/^\[api/.test(l))
        .slice(-80)
        .join('\n');
      // Where the audits' jobs are in Redis.
      const redis = system.redisClient();
      const key = (queue: string, state: string) => `${system.prefix}:${queue}:${state}`;
      const states = await Promise.all(
        ['analysis', 'scrape'].flatMap((q) => [
          redis.zcard(key(q, 'waiting-children')).then((n) => `${q} waiting-children ${n}`),
          redis.llen(key(q, 'wait')).then((n) => `${q} wait ${n}`),
          redis.llen(key(q, 'active')).then((n) => `${q} active ${n}`),
          redis.zcard(key(q, 'completed')).then((n) => `${q} completed ${n}`),
        ]),
      ).catch((e: unknown) => [`(queue states unreadable: ${String(e)})`]);
      redis.disconnect();
      throw new Error(`${(err as Error).message}\n${states.join(', ')}\n${workers}`);
    }
    const { audits, slot, killed, promoted, failoverMs, recoveryMs, writes } = outcome;
    expect(`${promoted.host}:${promoted.port}`).not.toBe(`${killed.host}:${killed.port}`);
    expectCompletedOnce(audits);
    // PostgreSQL's side: each audit was moved to done once and its result written once, never
    // failed, however often its jobs ran again after the failover.
    for (const a of audits) {
      const changes = writes[a.id] ?? [];
      expect(
        {
          done: changes.filter((w) => w.newStatus === 'done' && w.oldStatus !== 'done').length,
          resultWrites: changes.filter((w) => w.resultWritten).length,
          failed: changes.filter((w) => w.newStatus === 'failed').length,
        },
        a.id,
      ).toEqual({ done: 1, resultWrites: 1, failed: 0 });
    }
    console.log(
      `[faults] kill -9 of the Redis master of slot ${slot} (${killed.host}:${killed.port}) mid-audit: replica ${promoted.host}:${promoted.port} promoted in ${(failoverMs / 1000).toFixed(1)} s, ${audits.length} audits done once: recovered in ${(recoveryMs / 1000).toFixed(1)} s`,
    );
  });
});
