import { describe, expect } from 'vitest';
import { sql } from 'kysely';
import { pino } from 'pino';
import { createTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import { findAudit, insertAudit, type TDb } from '@aso/db';
import {
  analysisJobId,
  createRedis,
  createTypedWorker,
  ProgressBus,
  Producers,
  UnrecoverableError,
} from '@aso/queue';
import { GENERIC_FAILURE } from '../src/audit-failure.hook';
import { createStaleAuditSweep } from '../src/stale-audit.sweep';
import { eventsOf, SPOTIFY } from './analysis.helpers';

const HOUR_MS = 3_600_000;

async function audit(db: TDb, userId: string, ageMs: number): Promise<string> {
  const row = await insertAudit(db, {
    userId,
    accessCodeId: null,
    appId: SPOTIFY.appId,
    storefront: SPOTIFY.storefront,
    appStoreUrl: SPOTIFY.appStoreUrl,
    inputs: { main: SPOTIFY, competitors: [], keywords: [] },
  });
  // `created_at` is the database's own: set it back with SQL (the schema type forbids writes).
  await sql`update audits set created_at = now() - make_interval(secs => ${ageMs / 1000})
    where id = ${row.id}`.execute(db);
  return row.id;
}

describe('sweep of audits whose analysis ended without finishing them', () => {
  it('fails old audits whose job failed or is gone, once, and leaves live and recent ones', async ({
    database,
    redis,
  }) => {
    const conn = createRedis(redis.url, { role: 'worker' });
    const bus = new ProgressBus(conn, { prefix: redis.prefix });
    const producers = new Producers(conn, redis.prefix);
    const queue = producers.queue('analysis');
    const db = database.db;
    try {
      const { userId } = await createTestUser(db, 'sweep@example.com');
      const gone = await audit(db, userId, HOUR_MS);
      const waiting = await audit(db, userId, HOUR_MS);
      const failedChild = await audit(db, userId, HOUR_MS);
      const recent = await audit(db, userId, 0);

      // A job that failed for good through a failed scrape child, recorded by BullMQ while no
      // failure hook ran (this worker has none).
      const childKey = `${redis.prefix}:scrape:${failedChild}:scrape:999`;
      await conn.hset(childKey, {
        failedReason: 'App not found in the US App Store',
        data: JSON.stringify({ role: 'competitor', appId: '999' }),
      });
      const workerConn = createRedis(redis.url, { role: 'worker' });
      const failing = createTypedWorker(
        'analysis',
        {
          analysis: async () => {
            throw new UnrecoverableError(`child ${childKey} failed`);
          },
        },
        { connection: workerConn, prefix: redis.prefix },
      );
      const failed = new Promise((resolve) => failing.once('failed', resolve));
      await producers.add(
        'analysis',
        { auditId: failedChild },
        { jobId: analysisJobId(failedChild) },
      );
      await failed;
      await failing.close();
      workerConn.disconnect();
      // A job still waiting for a worker: its audit can still finish.
      await producers.add('analysis', { auditId: waiting }, { jobId: analysisJobId(waiting) });

      const sweep = createStaleAuditSweep(
        { db, redis: conn, bus, log: pino({ level: 'silent' }) },
        queue,
        30 * 60_000,
      );
      expect(await sweep()).toBe(2);

      const goneRow = await findAudit(db, gone);
      expect(goneRow).toMatchObject({ status: 'failed', error: GENERIC_FAILURE });
      const childRow = await findAudit(db, failedChild);
      expect(childRow).toMatchObject({
        status: 'failed',
        error: 'Competitor app 999: App not found in the US App Store',
      });
      expect((await findAudit(db, recent))?.status).toBe('queued');
      expect((await findAudit(db, waiting))?.status).toBe('queued');
      for (const id of [gone, failedChild]) {
        const errors = eventsOf(await bus.read(id), 'error');
        expect(errors).toHaveLength(1);
        expect(errors[0]!.message).toBe((await findAudit(db, id))!.error);
      }

      // Nothing twice.
      expect(await sweep()).toBe(0);
      expect(eventsOf(await bus.read(gone), 'error')).toHaveLength(1);
    } finally {
      await producers.close();
      conn.disconnect();
    }
  });
});
