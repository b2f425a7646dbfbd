import { describe, expect } from 'vitest';
import { sql } from 'kysely';
import { pino } from 'pino';
import { it } from '@aso/testkit/vitest';
import { findAudit, insertAudit, type TDb } from '@aso/db';
import { analysisJobId, createRedis, Producers, scrapeJobId } from '@aso/queue';
import { createTestUser, deletePrefix } from '@aso/testkit';
import { createAuditRecovery } from '../src/audit-recovery';
import {
  enqueueAudit,
  eventsOf,
  INSTAGRAM,
  SPOTIFY,
  startStack,
  waitForTerminal,
} from './analysis.helpers';

const MINUTE_MS = 60_000;

/** Inserts an audit row only (no jobs), `ageMs` old. */
async function auditRow(db: TDb, userId: string, ageMs: number, inputs: object): Promise<string> {
  const row = await insertAudit(db, {
    userId,
    accessCodeId: null,
    appId: SPOTIFY.appId,
    storefront: SPOTIFY.storefront,
    appStoreUrl: SPOTIFY.appStoreUrl,
    inputs: inputs as Record<string, unknown>,
  });
  await sql`update audits set created_at = now() - make_interval(secs => ${ageMs / 1000})
    where id = ${row.id}`.execute(db);
  return row.id;
}

describe('recovery of audits whose jobs were lost', () => {
  it('re-adds the whole flow of unfinished audits without a job, once, and leaves the others', async ({
    database,
    redis,
  }) => {
    const conn = createRedis(redis.url, { role: 'worker' });
    const producers = new Producers(conn, redis.prefix);
    const analysis = producers.queue('analysis');
    const scrape = producers.queue('scrape');
    const db = database.db;
    try {
      const { userId } = await createTestUser(db, 'recovery@example.com');
      const inputs = { main: SPOTIFY, competitors: [INSTAGRAM], keywords: 'music' };
      const lost = await auditRow(db, userId, MINUTE_MS, inputs);
      const recent = await auditRow(db, userId, 0, inputs);
      const stale = await auditRow(db, userId, 60 * MINUTE_MS, inputs);
      const unreadable = await auditRow(db, userId, MINUTE_MS, { main: 'nonsense' });
      const live = await enqueueAudit(db, producers, userId, inputs);
      await sql`update audits set created_at = now() - interval '1 minute' where id = ${live}`.execute(
        db,
      );
      const done = await auditRow(db, userId, MINUTE_MS, inputs);
      await sql`update audits set status = 'done' where id = ${done}`.execute(db);

      const recover = createAuditRecovery(
        { db, redis: conn, log: pino({ level: 'silent' }) },
        producers,
        { minAgeMs: 5_000, maxAgeMs: 30 * MINUTE_MS },
      );
      expect(await recover()).toEqual([lost]);
      const parent = await analysis.getJob(analysisJobId(lost));
      expect(parent?.data).toEqual({ auditId: lost });
      expect(await parent?.getState()).toBe('waiting-children');
      const children = await Promise.all(
        [SPOTIFY, INSTAGRAM].map((a) => scrape.getJob(scrapeJobId(lost, a.appId))),
      );
      expect(children.map((c): unknown => c?.data)).toEqual([
        { auditId: lost, ...SPOTIFY, role: 'main' },
        { auditId: lost, ...INSTAGRAM, role: 'competitor' },
      ]);
      for (const id of [recent, stale, unreadable, done])
        expect(await analysis.getJob(analysisJobId(id))).toBeUndefined();

      // A second pass (or another analyzer's) finds the jobs and adds nothing.
      const before = await scrape.getJobCounts('waiting', 'active', 'delayed');
      expect(await recover()).toEqual([]);
      expect(await scrape.getJobCounts('waiting', 'active', 'delayed')).toEqual(before);
    } finally {
      await producers.close();
      conn.disconnect();
    }
  });

  it('completes an audit whose keys were all deleted while it waited, with one complete event', async ({
    database,
    redis,
  }) => {
    // The file's prefix still holds the first test's jobs: start from an empty one.
    await deletePrefix(redis.prefix);
    const stack = await startStack(database, redis, {
      AUDIT_RECOVERY_EVERY_MS: '500',
      AUDIT_RECOVERY_MIN_AGE_MS: '0',
    });
    const db = database.db;
    try {
      const { userId } = await createTestUser(db, 'wiped@example.com');
      // Queued while the analysis queue is paused, then every key of the prefix is deleted:
      // what a Redis restart without persistence leaves behind.
      const analysis = stack.producers.queue('analysis');
      await analysis.pause();
      const scrape = stack.producers.queue('scrape');
      await scrape.pause();
      const auditId = await enqueueAudit(db, stack.producers, userId, {
        main: SPOTIFY,
        competitors: [],
        keywords: '',
      });
      await deletePrefix(redis.prefix);
      expect(await analysis.getJob(analysisJobId(auditId))).toBeUndefined();

      const entries = await waitForTerminal(stack.bus, auditId, 60_000);
      expect(eventsOf(entries, 'complete')).toHaveLength(1);
      expect(eventsOf(entries, 'error')).toHaveLength(0);
      expect((await findAudit(db, auditId))?.status).toBe('done');
    } finally {
      await stack.close();
    }
  });
});
