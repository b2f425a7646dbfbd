import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { sql } from 'kysely';
import {
  DASHBOARD_NAMING_MESSAGE,
  ZDashboard,
  ZDashboardList,
  type TDashboardConfig,
  type TMergedData,
} from '@aso/contracts';
import { QUEUES } from '@aso/queue';
import { createTestUser, openTestQueues } from '@aso/testkit';
import { expectError } from './access.fixtures';
import { it, SAMPLES, uploadSample } from './analytics.helpers';

const [, calm, tiny] = SAMPLES;

const configOf = (m: TMergedData): TDashboardConfig => ({
  downloadId: m.downloadId,
  headers: m.headers,
  totalRows: m.totalRows,
  createdFrom: 'csv_upload',
});

/** dd-mm-yyyy of `at` in UTC (the server names dashboards by the UTC day). */
const ddmmyyyy = (at: Date) =>
  `${String(at.getUTCDate()).padStart(2, '0')}-${String(at.getUTCMonth() + 1).padStart(2, '0')}-${at.getUTCFullYear()}`;

describe('datasets and dashboards belong to their owner', () => {
  it("answers 404 to another user for A's dataset, download, report and dashboard", async ({
    env,
    database,
  }) => {
    const { app } = env;
    const a = await createTestUser(database.db, 'owner-a@example.com');
    const b = await createTestUser(database.db, 'other-b@example.com');
    const merged = await uploadSample(app, a, calm);
    const paths = [
      `/api/chart-data/${merged.downloadId}`,
      `/api/download-merged/${merged.downloadId}`,
      `/api/reports/${merged.downloadId}`,
      `/api/reports/${merged.downloadId}?start=2025-07-20&end=2025-07-31`,
    ];
    for (const url of paths) {
      expect((await app.inject({ url, headers: a.headers })).statusCode, url).toBe(200);
      expectError(
        await app.inject({ url, headers: b.headers }),
        404,
        'Dataset not found or expired',
      );
      expectError(await app.inject({ url }), 401, /sign in/i);
    }
    // Unknown and malformed ids read as not found, never as a server error.
    for (const id of [randomUUID(), 'not-a-uuid']) {
      expectError(
        await app.inject({ url: `/api/chart-data/${id}`, headers: a.headers }),
        404,
        'Dataset not found or expired',
      );
    }

    // B cannot save a dashboard over A's dataset.
    expectError(
      await app.inject({
        method: 'POST',
        url: '/api/dashboards',
        headers: b.headers,
        payload: { sessionId: 's-b', appName: 'X', territory: 'Y', configJson: configOf(merged) },
      }),
      404,
      'Dataset not found or expired',
    );

    const before = new Date();
    const created = await app.inject({
      method: 'POST',
      url: '/api/dashboards',
      headers: a.headers,
      payload: {
        sessionId: 'session-1',
        appName: merged.appName,
        territory: merged.territory,
        configJson: configOf(merged),
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const dashboard = ZDashboard.parse(created.json());
    expect(dashboard).toMatchObject({
      appName: 'Calm Notes: Journal & Mood',
      territory: 'United Kingdom',
      configJson: configOf(merged),
    });
    const names = [before, new Date()].map(
      (d) => `Calm Notes: Journal & Mood United Kingdom ${ddmmyyyy(d)}`,
    );
    expect(names).toContain(dashboard.name);
    const row = await database.db
      .selectFrom('dashboards')
      .select(['user_id', 'session_id'])
      .where('id', '=', dashboard.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ user_id: a.userId, session_id: 'session-1' });

    expect(
      ZDashboardList.parse(
        (await app.inject({ url: '/api/dashboards', headers: b.headers })).json(),
      ),
    ).toEqual([]);
    expectError(
      await app.inject({
        method: 'DELETE',
        url: `/api/dashboards/${dashboard.id}`,
        headers: b.headers,
      }),
      404,
      'Dashboard not found',
    );
    expect(
      ZDashboardList.parse(
        (await app.inject({ url: '/api/dashboards', headers: a.headers })).json(),
      ),
    ).toEqual([dashboard]);

    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/dashboards/${dashboard.id}`,
      headers: a.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expectError(
      await app.inject({
        method: 'DELETE',
        url: `/api/dashboards/${dashboard.id}`,
        headers: a.headers,
      }),
      404,
      'Dashboard not found',
    );
    expect(
      ZDashboardList.parse(
        (await app.inject({ url: '/api/dashboards', headers: a.headers })).json(),
      ),
    ).toEqual([]);
  });

  it('requires app name and territory to save a dashboard and lists newest first', async ({
    env,
    database,
  }) => {
    const { app } = env;
    const user = await createTestUser(database.db, 'dashboards@example.com');
    const merged = await uploadSample(app, user, tiny);
    // The sample without a preamble names neither: the client cannot name the dashboard.
    expect({ appName: merged.appName, territory: merged.territory }).toEqual({
      appName: null,
      territory: null,
    });
    for (const body of [
      { appName: merged.appName, territory: merged.territory },
      { appName: 'Tiny Budget', territory: '  ' },
      { territory: 'Germany' },
    ]) {
      expectError(
        await app.inject({
          method: 'POST',
          url: '/api/dashboards',
          headers: user.headers,
          payload: { sessionId: 's', ...body, configJson: configOf(merged) },
        }),
        400,
        DASHBOARD_NAMING_MESSAGE,
      );
    }
    expectError(
      await app.inject({
        method: 'POST',
        url: '/api/dashboards',
        headers: user.headers,
        payload: {
          appName: 'Tiny Budget',
          territory: 'Germany',
          configJson: { downloadId: merged.downloadId },
        },
      }),
      400,
      /^Config json (headers|total rows|created from): /,
    );

    const ids: string[] = [];
    for (const territory of ['Germany', 'Austria']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/dashboards',
        headers: user.headers,
        payload: {
          sessionId: 's',
          appName: '  Tiny   Budget ',
          territory,
          configJson: configOf(merged),
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const d = ZDashboard.parse(res.json());
      expect(d.name).toMatch(new RegExp(`^Tiny Budget ${territory} \\d{2}-\\d{2}-\\d{4}$`));
      ids.push(d.id);
    }
    const list = ZDashboardList.parse(
      (await app.inject({ url: '/api/dashboards', headers: user.headers })).json(),
    );
    expect(list.map((d) => d.id)).toEqual([...ids].reverse());
  });
});

describe('reports', () => {
  it('refuses malformed ranges, naming the parameter', async ({ env, database }) => {
    const user = await createTestUser(database.db, 'reports@example.com');
    const merged = await uploadSample(env.app, user, tiny);
    const url = (q: string) => `/api/reports/${merged.downloadId}?${q}`;
    expectError(
      await env.app.inject({ url: url('start=2025-3-01&end=2025-03-14'), headers: user.headers }),
      400,
      /^Start: /,
    );
    expectError(
      await env.app.inject({ url: url('start=2025-03-01&end=2025-02-30'), headers: user.headers }),
      400,
      /^End: /,
    );
    expectError(
      await env.app.inject({ url: url('start=2025-03-10&end=2025-03-01'), headers: user.headers }),
      400,
      /End: start must be on or before end/,
    );
    expectError(
      await env.app.inject({ url: url('start=2025-03-01'), headers: user.headers }),
      400,
      /give both start and end/,
    );
    const ok = await env.app.inject({
      url: url('start=2025-03-08&end=2025-03-14'),
      headers: user.headers,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      range: { start: '2025-03-08', end: '2025-03-14', days: 7 },
      previousRange: { start: '2025-03-01', end: '2025-03-07', days: 7 },
      rowCounts: { total: 14, current: 7, previous: 7, unparseableDates: 0 },
    });
  });
});

describe('expiry', () => {
  it('an expired dataset answers 404 at once and is deleted with its uploads by the cleanup job', async ({
    env,
    database,
    redis,
  }) => {
    const { app } = env;
    const user = await createTestUser(database.db, 'expiry@example.com');
    const expired = await uploadSample(app, user, tiny);
    const live = await uploadSample(app, user, calm);
    const dashboard = await app.inject({
      method: 'POST',
      url: '/api/dashboards',
      headers: user.headers,
      payload: { appName: 'Tiny Budget', territory: 'Germany', configJson: configOf(expired) },
    });
    expect(dashboard.statusCode, dashboard.body).toBe(200);

    await database.db
      .updateTable('datasets')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', expired.downloadId)
      .execute();
    // An upload never merged, also past its expiry.
    await database.db
      .insertInto('uploads')
      .values({
        user_id: user.userId,
        field: 'conversionCSV',
        filename: 'orphan.csv',
        size_bytes: 3,
        content: Buffer.from('a,b'),
        expires_at: sql<Date>`now() - interval '1 minute'`,
      })
      .execute();

    // Gone for every read before any cleanup ran (the rows are still there).
    for (const url of [
      `/api/chart-data/${expired.downloadId}`,
      `/api/download-merged/${expired.downloadId}`,
      `/api/reports/${expired.downloadId}`,
    ]) {
      expectError(
        await app.inject({ url, headers: user.headers }),
        404,
        'Dataset not found or expired',
      );
    }
    expectError(
      await app.inject({
        method: 'POST',
        url: '/api/dashboards',
        headers: user.headers,
        payload: { appName: 'Tiny Budget', territory: 'Germany', configJson: configOf(expired) },
      }),
      404,
      'Dataset not found or expired',
    );
    const count = async (table: 'datasets' | 'uploads', column: 'id' | 'dataset_id', id: string) =>
      (await database.db.selectFrom(table).select('id').where(column, '=', id).execute()).length;
    expect(await count('datasets', 'id', expired.downloadId)).toBe(1);
    expect(await count('uploads', 'dataset_id', expired.downloadId)).toBe(2);

    // The worker registered the hourly scheduler; run one cleanup job now through the queue.
    const queues = openTestQueues(redis);
    try {
      const queue = queues.producers.queue(QUEUES.maintenance);
      const events = await queues.events(QUEUES.maintenance);
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.map((s) => ({ key: s.key, every: s.every }))).toEqual([
        { key: 'cleanup-expired-hourly', every: 3_600_000 },
      ]);
      const job = await queues.producers.add('cleanup-expired', {});
      expect(await job.waitUntilFinished(events, 30_000)).toEqual({ datasets: 1, uploads: 3 });
    } finally {
      await queues.close();
    }

    expect(await count('datasets', 'id', expired.downloadId)).toBe(0);
    expect(await count('uploads', 'dataset_id', expired.downloadId)).toBe(0);
    const orphans = await database.db
      .selectFrom('uploads')
      .select('id')
      .where('filename', '=', 'orphan.csv')
      .execute();
    expect(orphans).toEqual([]);
    expectError(
      await app.inject({ url: `/api/chart-data/${expired.downloadId}`, headers: user.headers }),
      404,
      'Dataset not found or expired',
    );
    // The live dataset, its uploads, and the saved dashboard (it shows "expired" in the UI) stay.
    expect(await count('datasets', 'id', live.downloadId)).toBe(1);
    expect(await count('uploads', 'dataset_id', live.downloadId)).toBe(2);
    expect(
      (await app.inject({ url: `/api/chart-data/${live.downloadId}`, headers: user.headers }))
        .statusCode,
    ).toBe(200);
    const list = ZDashboardList.parse(
      (await app.inject({ url: '/api/dashboards', headers: user.headers })).json(),
    );
    expect(
      list.map((d) => (d.configJson.createdFrom === 'csv_upload' ? d.configJson.downloadId : null)),
    ).toEqual([expired.downloadId]);
  });
});
