/**
 * Watching listings end to end: the real gateway, the real scraper (watch reads, rounds,
 * webhook deliveries) and the replay server answering as of a day from the project's
 * CONSTRUCTED recordings of an invented app ("Calm Notes") beside the real recordings.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, vi } from 'vitest';
import { sql } from 'kysely';
import { pino } from 'pino';
import { insertWebhookDelivery } from '@aso/db';
import { createRedis, Producers } from '@aso/queue';
import { it } from '@aso/testkit/vitest';
import { createTestUser, type TTestUser } from '@aso/testkit';
import {
  changeKind,
  ZHistoryAnswer,
  ZNotificationList,
  ZWatchItem,
  ZWebhook,
  ZWebhookEvent,
  type THistoryAnswer,
  type TWatchItem,
} from '@aso/contracts';
import { startReplayServer } from '@aso/appstore/node';
import { verifyWebhookSignature } from '@aso/webhook';
import {
  parseWorkerEnv as parseScraperEnv,
  startScraper,
  requeueStrandedDeliveries,
} from '@aso/scraper';
import {
  CONSTRUCTED_APP,
  CONSTRUCTED_CHANGES,
  CONSTRUCTED_RECORDINGS_DIR,
} from '@aso/appstore/recordings';
import {
  appstoreFixturesDir,
  INSTAGRAM_URL,
  SPOTIFY_URL,
  startApi,
  workerEnv,
  type TTestApi,
} from './audit.helpers';

const WAIT = { timeout: 30_000, interval: 100 };

let users = 0;
/** A signed-in user with an email of its own (the database is shared by the file's tests). */
const newUser = (db: Parameters<typeof createTestUser>[0]) =>
  createTestUser(db, `watcher-${++users}@example.com`);

/** A local webhook receiver: records each POST; answers with `status()` (default 200). */
async function startReceiver(status: () => number = () => 200) {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function startSystem(
  database: { url: string },
  redis: { url: string; prefix: string },
  opts: { asOf?: string; apiEnv?: Record<string, string>; scraperEnv?: Record<string, string> },
) {
  const replay = await startReplayServer({
    port: 0,
    fixturesDir: [appstoreFixturesDir(), CONSTRUCTED_RECORDINGS_DIR],
    asOf: opts.asOf ?? null,
  });
  const api = await startApi(database, redis, opts.apiEnv);
  const scraper = await startScraper(
    parseScraperEnv({ ...workerEnv(database, redis, replay.url), ...opts.scraperEnv }),
    { handleSignals: false, log: pino({ level: 'silent' }) },
  );
  return {
    replay,
    api,
    close: async () => {
      await scraper.close();
      await api.close();
      await replay.close();
    },
  };
}

function call(
  api: TTestApi,
  user: TTestUser,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return api.app.inject({
    method,
    url,
    headers: user.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function watchlist(api: TTestApi, user: TTestUser): Promise<TWatchItem[]> {
  const res = await call(api, user, 'GET', '/api/watchlist');
  expect(res.statusCode).toBe(200);
  return ZWatchItem.array().parse(res.json());
}

async function history(api: TTestApi, user: TTestUser, appId: string): Promise<THistoryAnswer> {
  const res = await call(api, user, 'GET', `/api/apps/${appId}/history?storefront=us`);
  expect(res.statusCode, res.body).toBe(200);
  return ZHistoryAnswer.parse(res.json());
}

describe('the watchlist', () => {
  it('watches, reads, refreshes on a changed recording, stores and answers each change, notifies and signs the webhook; refuses other users', async ({
    database,
    redis,
  }) => {
    const receiver = await startReceiver();
    const sys = await startSystem(database, redis, {
      asOf: '2026-05-01',
      apiEnv: { WATCHLIST_MAX_PER_USER: '2', WEBHOOK_ALLOW_LOOPBACK: 'true' },
      scraperEnv: { WEBHOOK_ALLOW_LOOPBACK: 'true', WATCH_ROUND_EVERY_MS: '3600000' },
    });
    try {
      const { api } = sys;
      const a = await newUser(database.db);
      const b = await newUser(database.db);
      const c = await newUser(database.db);

      expect(
        (await call(api, a, 'POST', '/api/watchlist', { appStoreUrl: 'x', role: 'mine' })).json(),
      ).toMatchObject({ code: 'BAD_REQUEST' });
      expect(
        (await call(api, a, 'POST', '/api/watchlist', { appStoreUrl: 'x', role: 'mine' })).json<{
          message: string;
        }>().message,
      ).toMatch(/^App Store link: /);
      expect(
        (
          await call(api, a, 'POST', '/api/watchlist', {
            appStoreUrl: CONSTRUCTED_APP.url,
            role: 'boss',
          })
        ).statusCode,
      ).toBe(400);

      const created = await call(api, a, 'POST', '/api/watchlist', {
        appStoreUrl: CONSTRUCTED_APP.url,
        role: 'mine',
      });
      expect(created.statusCode, created.body).toBe(201);
      const item = ZWatchItem.parse(created.json());
      expect(item).toMatchObject({
        appId: CONSTRUCTED_APP.appId,
        storefront: 'us',
        language: null,
        role: 'mine',
        lastError: null,
      });

      const hook = await call(api, a, 'PUT', '/api/webhook', { url: receiver.url });
      expect(hook.statusCode, hook.body).toBe(200);
      const secret = ZWebhook.parse(hook.json()).secret!;
      expect(secret).toMatch(/^whsec_/);
      // A second PUT keeps the secret and never shows it again.
      expect(
        ZWebhook.parse((await call(api, a, 'PUT', '/api/webhook', { url: receiver.url })).json())
          .secret,
      ).toBeUndefined();

      // The first read is queued with the watch.
      await vi.waitUntil(async () => (await watchlist(api, a))[0]?.lastCheckedAt, WAIT);
      const [read] = await watchlist(api, a);
      expect(read).toMatchObject({
        appName: 'Calm Notes: Journal & Mood',
        lastError: null,
        lastChangeAt: null,
      });
      expect(read!.iconUrl).toContain('mzstatic.com');

      // B watches the same listing (one target); C watches nothing.
      const bItem = ZWatchItem.parse(
        (
          await call(api, b, 'POST', '/api/watchlist', {
            appStoreUrl: CONSTRUCTED_APP.url,
            role: 'competitor',
          })
        ).json(),
      );
      expect(bItem.appName).toBe('Calm Notes: Journal & Mood');
      // Watching again changes the role and keeps the item.
      const again = await call(api, a, 'POST', '/api/watchlist', {
        appStoreUrl: CONSTRUCTED_APP.url,
        role: 'mine',
      });
      expect(again.statusCode).toBe(200);
      expect(again.json<TWatchItem>().id).toBe(item.id);

      // Other users' items are refused as missing.
      expect((await call(api, b, 'POST', `/api/watchlist/${item.id}/refresh`)).statusCode).toBe(
        404,
      );
      expect((await call(api, b, 'DELETE', `/api/watchlist/${item.id}`)).statusCode).toBe(404);
      expect(
        (await call(api, c, 'GET', `/api/apps/${CONSTRUCTED_APP.appId}/history?storefront=us`))
          .statusCode,
      ).toBe(404);
      expect(
        (await call(api, a, 'GET', `/api/apps/${CONSTRUCTED_APP.appId}/history?storefront=gb`))
          .statusCode,
      ).toBe(404);
      expect(await watchlist(api, c)).toEqual([]);

      const first = await history(api, a, CONSTRUCTED_APP.appId);
      expect(first).toMatchObject({ watchItemId: item.id, role: 'mine', changes: [] });
      expect(first.snapshots).toHaveLength(1);

      // The store changes; a refresh reads it at once (the snapshot cache is no reason not to).
      sys.replay.setAsOf('2026-06-01');
      const requests = sys.replay.requestCount;
      const refreshed = await call(api, a, 'POST', `/api/watchlist/${item.id}/refresh`);
      expect(refreshed.statusCode).toBe(202);
      expect(refreshed.json()).toEqual({ id: item.id, queued: true });
      await vi.waitUntil(
        async () => (await history(api, a, CONSTRUCTED_APP.appId)).snapshots.length === 2,
        WAIT,
      );
      expect(sys.replay.requestCount).toBeGreaterThan(requests);

      const after = await history(api, a, CONSTRUCTED_APP.appId);
      expect(after.changes.map((ch) => ch.field)).toEqual(CONSTRUCTED_CHANGES['2026-06-01']);
      const title = after.changes.find((ch) => ch.field === 'title')!;
      expect(title).toMatchObject({
        before: 'Calm Notes: Journal & Mood',
        after: 'Calm Notes: Mood Journal',
        snapshotId: after.snapshots[1]!.id,
        previousSnapshotId: after.snapshots[0]!.id,
        detectedAt: after.snapshots[1]!.fetchedAt,
      });
      expect(after.changes.find((ch) => ch.field === 'inAppEvents')!.detail).toEqual({
        started: ['6700000002'],
        ended: ['6700000001'],
      });
      expect(after.snapshots.map((s) => s.rating)).toEqual([4.52, 4.61]);
      expect(after.snapshots.map((s) => s.categoryRank)).toEqual([
        '#48 in Health & Fitness',
        '#31 in Health & Fitness',
      ]);
      expect((await history(api, b, CONSTRUCTED_APP.appId)).changes).toHaveLength(
        after.changes.length,
      );

      // Notifications: one per watcher, listing changes only; marking read.
      const listingFields = CONSTRUCTED_CHANGES['2026-06-01'].filter(
        (f) => changeKind(f) === 'listing',
      );
      for (const user of [a, b]) {
        const list = ZNotificationList.parse(
          (await call(api, user, 'GET', '/api/notifications')).json(),
        );
        expect(list.unread).toBe(1);
        expect(list.items).toHaveLength(1);
        expect(list.items[0]).toMatchObject({
          appId: CONSTRUCTED_APP.appId,
          fields: listingFields,
          readAt: null,
        });
      }
      expect(
        ZNotificationList.parse((await call(api, c, 'GET', '/api/notifications')).json()),
      ).toEqual({ items: [], unread: 0 });
      const [aNote] = ZNotificationList.parse(
        (await call(api, a, 'GET', '/api/notifications')).json(),
      ).items;
      // B cannot mark A's notification.
      expect(
        (await call(api, b, 'POST', '/api/notifications/read', { ids: [aNote!.id] })).json(),
      ).toEqual({ unread: 1 });
      expect(
        (await call(api, a, 'POST', '/api/notifications/read', { ids: [aNote!.id] })).json(),
      ).toEqual({ unread: 0 });
      expect((await call(api, b, 'POST', '/api/notifications/read')).json()).toEqual({ unread: 0 });
      expect((await call(api, a, 'GET', '/api/notifications/unread-count')).json()).toEqual({
        unread: 0,
      });
      expect((await watchlist(api, a))[0]!.lastChangeAt).toBe(after.snapshots[1]!.fetchedAt);

      // A's webhook got the change, signed with A's secret.
      await vi.waitUntil(() => receiver.received.length === 1, WAIT);
      const [post] = receiver.received;
      expect(post!.headers['content-type']).toBe('application/json');
      expect(post!.headers['x-aso-event']).toBe('listing.changed');
      expect(
        verifyWebhookSignature(secret, String(post!.headers['x-aso-signature']), post!.body),
      ).toBe(true);
      expect(
        verifyWebhookSignature(`${secret}x`, String(post!.headers['x-aso-signature']), post!.body),
      ).toBe(false);
      const event = ZWebhookEvent.parse(JSON.parse(post!.body));
      expect(event).toMatchObject({
        type: 'listing.changed',
        app: { appId: CONSTRUCTED_APP.appId, role: 'mine' },
      });
      expect(event.changes.map((ch) => ch.field)).toEqual(listingFields);
      await vi.waitUntil(
        async () =>
          ZWebhook.parse(
            (await call(api, a, 'GET', '/api/webhook')).json<{ webhook: unknown }>().webhook,
          ).deliveries[0]?.status === 'delivered',
        WAIT,
      );

      // The admin's cache clear keeps the history.
      await database.db.updateTable('app_snapshots').set({ reusable: false }).execute();
      expect((await history(api, a, CONSTRUCTED_APP.appId)).snapshots).toHaveLength(2);

      // The limit; leaving frees a place, and the last watcher's leaving ends the target.
      expect(
        (
          await call(api, a, 'POST', '/api/watchlist', {
            appStoreUrl: SPOTIFY_URL,
            role: 'competitor',
          })
        ).statusCode,
      ).toBe(201);
      const full = await call(api, a, 'POST', '/api/watchlist', {
        appStoreUrl: INSTAGRAM_URL,
        role: 'competitor',
      });
      expect(full.statusCode).toBe(409);
      expect(full.json<{ message: string }>().message).toBe(
        'You can watch at most 2 listings (WATCHLIST_MAX_PER_USER); remove one to watch another',
      );
      expect((await call(api, a, 'DELETE', `/api/watchlist/${item.id}`)).statusCode).toBe(204);
      expect((await call(api, b, 'DELETE', `/api/watchlist/${bItem.id}`)).statusCode).toBe(204);
      const targets = await sql<{ app_id: string }>`select app_id from watch_targets`.execute(
        database.db,
      );
      expect(targets.rows.map((r) => r.app_id)).not.toContain(CONSTRUCTED_APP.appId);
      const kept = await sql<{ n: string }>`select count(*) as n from listing_changes`.execute(
        database.db,
      );
      expect(Number(kept.rows[0]!.n)).toBe(after.changes.length);
    } finally {
      await sys.close();
      await receiver.close();
    }
  });

  it('reads each watched listing once per round however many users watch it', async ({
    database,
    redis,
  }) => {
    const sys = await startSystem(database, redis, {
      scraperEnv: { WATCH_ROUND_EVERY_MS: '1000' },
    });
    try {
      const { api } = sys;
      const started = new Date();
      // Start from no watched listing (the first test leaves one of its own).
      await sql`delete from watch_targets`.execute(database.db);
      const users = await Promise.all(['a', 'b', 'c'].map(() => newUser(database.db)));
      for (const user of users) {
        for (const url of [SPOTIFY_URL, INSTAGRAM_URL]) {
          expect(
            (
              await call(api, user, 'POST', '/api/watchlist', {
                appStoreUrl: url,
                role: 'competitor',
              })
            ).statusCode,
          ).toBe(201);
        }
      }
      // Store reads of the two listings since this test began (the file's tests share the database).
      const reads = async () =>
        (
          await sql<{ app_id: string; n: string }>`
            select app_id, count(*) as n from store_reads
            where app_id in ('324684580', '389801252') and read_at >= ${started}
            group by app_id order by app_id`.execute(database.db)
        ).rows.map((r) => [r.app_id, Number(r.n)]);
      await vi.waitUntil(
        async () =>
          (await reads()).length === 2 &&
          (await watchlist(api, users[0]!)).every((i) => i.lastCheckedAt),
        WAIT,
      );
      expect(await reads()).toEqual([
        ['324684580', 1],
        ['389801252', 1],
      ]);

      // Both listings fall due: the next round reads each once.
      const before = new Date();
      await sql`update watch_targets set next_check_at = now()`.execute(database.db);
      await vi.waitUntil(
        async () =>
          (await watchlist(api, users[2]!)).every((i) => new Date(i.lastCheckedAt!) > before),
        WAIT,
      );
      expect(await reads()).toEqual([
        ['324684580', 2],
        ['389801252', 2],
      ]);
      // Not due again for about WATCH_INTERVAL (24 h, jitter 10 %).
      const due = await sql<{
        hours: number;
      }>`select extract(epoch from next_check_at - now()) / 3600 as hours from watch_targets`.execute(
        database.db,
      );
      for (const { hours } of due.rows) expect(Number(hours)).toBeGreaterThan(22.7);
    } finally {
      await sys.close();
    }
  });
});

describe('the webhook', () => {
  it('refuses loopback, private, link-local, unique-local and CGNAT addresses unless loopback is enabled for tests', async ({
    database,
    redis,
  }) => {
    const api = await startApi(database, redis);
    try {
      const a = await newUser(database.db);
      const put = async (url: string) => {
        const res = await call(api, a, 'PUT', '/api/webhook', { url });
        return [res.statusCode, res.json<{ message?: string }>().message];
      };
      expect(await put('http://127.0.0.1:9/hook')).toEqual([
        400,
        'URL: 127.0.0.1 resolves to 127.0.0.1 (loopback); webhooks may only be sent to public addresses',
      ]);
      expect((await put('http://localhost:9/hook'))[1]).toMatch(
        /^URL: localhost resolves to (127\.0\.0\.1|::1) \(loopback\)/,
      );
      expect((await put('http://10.1.2.3/x'))[1]).toMatch(/\(private network\)/);
      expect((await put('http://192.168.0.10/x'))[1]).toMatch(/\(private network\)/);
      expect((await put('http://169.254.169.254/latest/meta-data'))[1]).toMatch(/\(link-local\)/);
      expect((await put('http://100.64.0.1/x'))[1]).toMatch(/\(carrier-grade NAT\)/);
      expect((await put('http://[fd00::1]/x'))[1]).toMatch(/\(unique-local\)/);
      expect((await put('http://[fe80::1]/x'))[1]).toMatch(/\(link-local\)/);
      expect((await put('http://[::ffff:127.0.0.1]/x'))[1]).toMatch(/\(loopback\)/);
      expect((await put('http://0.0.0.0/x'))[1]).toMatch(/\(unspecified\)/);
      expect(await put('ftp://example.com/x')).toEqual([
        400,
        'URL: only http and https URLs are accepted',
      ]);
      expect(await put('https://user:pw@example.com/x')).toEqual([
        400,
        'URL: a user name or password in the URL is not accepted',
      ]);
      expect(await put('not a url')).toEqual([400, 'URL: not an absolute URL']);
      expect((await call(api, a, 'GET', '/api/webhook')).json()).toEqual({ webhook: null });
      expect((await call(api, a, 'DELETE', '/api/webhook')).statusCode).toBe(404);
      expect((await call(api, a, 'POST', '/api/webhook/test')).statusCode).toBe(404);
    } finally {
      await api.close();
    }
  });

  it('delivers, once, an event whose job was lost (stored, never queued, as after a Redis restart)', async ({
    database,
    redis,
  }) => {
    const receiver = await startReceiver();
    const sys = await startSystem(database, redis, {
      apiEnv: { WEBHOOK_ALLOW_LOOPBACK: 'true' },
      // A round every second: each one looks for deliveries that lost their job.
      scraperEnv: { WEBHOOK_ALLOW_LOOPBACK: 'true', WATCH_ROUND_EVERY_MS: '1000' },
    });
    try {
      const { api } = sys;
      const a = await newUser(database.db);
      const put = await call(api, a, 'PUT', '/api/webhook', { url: receiver.url });
      expect(put.statusCode, put.body).toBe(200);
      // Stored as the scraper stores a change's delivery, but its job never reached Redis.
      const lost = await insertWebhookDelivery(database.db, a.userId, {
        id: crypto.randomUUID(),
        type: 'webhook.test',
        createdAt: new Date().toISOString(),
        app: null,
        changes: [],
      });
      // Fresh, it is left alone: its own job may still be on its way.
      await sql`update webhook_deliveries set created_at = now() - interval '2 minutes' where id = ${lost}`.execute(
        database.db,
      );

      await vi.waitUntil(() => receiver.received.length === 1, WAIT);
      expect(receiver.received[0]!.headers['x-aso-delivery']).toBe(lost);
      await vi.waitUntil(
        async () =>
          ZWebhook.parse(
            (await call(api, a, 'GET', '/api/webhook')).json<{ webhook: unknown }>().webhook,
          ).deliveries[0]?.status === 'delivered',
        WAIT,
      );
      // Delivered, it is no longer looked for: one POST in all.
      const conn = createRedis(redis.url, { role: 'producer', name: 'test:webhook-requeue' });
      try {
        const producers = new Producers(conn, redis.prefix);
        const log = pino({ level: 'silent' });
        expect(await requeueStrandedDeliveries({ db: database.db, producers, log })).toBe(0);
        await producers.close();
      } finally {
        conn.disconnect();
      }
      expect(receiver.received).toHaveLength(1);
    } finally {
      await sys.close();
      await receiver.close();
    }
  });

  it('sends a signed test event, retries a failed delivery with backoff and rotates the secret', async ({
    database,
    redis,
  }) => {
    let answers = 0;
    const receiver = await startReceiver(() => (++answers === 1 ? 503 : 204));
    const sys = await startSystem(database, redis, {
      apiEnv: { WEBHOOK_ALLOW_LOOPBACK: 'true' },
      scraperEnv: { WEBHOOK_ALLOW_LOOPBACK: 'true' },
    });
    try {
      const { api } = sys;
      const a = await newUser(database.db);
      const { secret } = ZWebhook.parse(
        (await call(api, a, 'PUT', '/api/webhook', { url: receiver.url })).json(),
      );
      const test = await call(api, a, 'POST', '/api/webhook/test');
      expect(test.statusCode).toBe(202);
      expect(test.json()).toMatchObject({ status: 'pending', attempts: 0 });
      // The first POST answers 503; BullMQ tries again after its backoff (10 s).
      await vi.waitUntil(() => receiver.received.length === 2, { timeout: 40_000, interval: 200 });
      const [failed, delivered] = receiver.received;
      expect(failed!.body).toBe(delivered!.body);
      expect(delivered!.headers['x-aso-event']).toBe('webhook.test');
      expect(
        verifyWebhookSignature(
          secret!,
          String(delivered!.headers['x-aso-signature']),
          delivered!.body,
        ),
      ).toBe(true);
      expect(ZWebhookEvent.parse(JSON.parse(delivered!.body))).toMatchObject({
        type: 'webhook.test',
        app: null,
        changes: [],
      });
      await vi.waitUntil(
        async () =>
          ZWebhook.parse(
            (await call(api, a, 'GET', '/api/webhook')).json<{ webhook: unknown }>().webhook,
          ).deliveries[0]?.status === 'delivered',
        WAIT,
      );
      const [delivery] = ZWebhook.parse(
        (await call(api, a, 'GET', '/api/webhook')).json<{ webhook: unknown }>().webhook,
      ).deliveries;
      expect(delivery).toMatchObject({ attempts: 2, lastError: null });

      const rotated = ZWebhook.parse((await call(api, a, 'POST', '/api/webhook/secret')).json());
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(secret);
      expect(rotated.secretHint).toBe(`…${rotated.secret!.slice(-4)}`);
      expect((await call(api, a, 'DELETE', '/api/webhook')).statusCode).toBe(204);
      expect((await call(api, a, 'GET', '/api/webhook')).json()).toEqual({ webhook: null });
    } finally {
      await sys.close();
      await receiver.close();
    }
  });
});
