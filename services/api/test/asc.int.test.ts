/**
 * App Store Connect end to end: the real gateway, the real importer and the ASC stand-in (a
 * real HTTP server enforcing Apple's token, rate-limit, role and segment-URL rules, serving
 * CONSTRUCTED reports), with a key pair generated here.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, vi } from 'vitest';
import { sql } from 'kysely';
import { pino } from 'pino';
import {
  ZAscConnection,
  ZAscImport,
  ZDashboard,
  ZAscMetrics,
  type TAscImport,
  type TAscMetrics,
} from '@aso/contracts';
import {
  startAscStandIn,
  type TAscStandIn,
  type TAscStandInOptions,
  type TRecord,
} from '@aso/asc/stand-in';
import { generateSecretsKey } from '@aso/asc';
import { createRedis } from '@aso/queue';
import { it } from '@aso/testkit/vitest';
import { createTestUser, type TTestUser } from '@aso/testkit';
import { parseAscImportEnv, SNAPSHOT_REFUSED_NOTICE, startAscImport } from '@aso/asc-import';
import { currentVersion } from '../src/services/report-pdf.service';
import { startApi, type TTestApi } from './audit.helpers';

const WAIT = { timeout: 60_000, interval: 100 };
const SECRETS_KEY = generateSecretsKey();
const ISSUER = '69a6de70-03db-47e3-e053-5b8c7c11a4d1';
const APP = { id: '1500000001', name: 'Constructed Weather', bundleId: 'com.example.weather' };
const OTHER_APP = { id: '1500000002', name: 'Constructed Notes', bundleId: 'com.example.notes' };
const FIRST = '2026-03-01';
const LAST_PROCESSING = '2026-04-15';

function keyPair() {
  const k = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    privatePem: k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: k.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The body lines of a PEM: what must never appear anywhere. */
const pemBody = (pem: string) => pem.split('\n').filter((l) => l && !l.startsWith('-----'));

let users = 0;
const newUser = (db: Parameters<typeof createTestUser>[0]) =>
  createTestUser(db, `asc-${++users}@example.com`);

/** Captures every log line of the importer in this process. */
function captureLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

async function startSystem(
  database: { url: string },
  redis: { url: string; prefix: string },
  standIn: Partial<TAscStandInOptions> & Pick<TAscStandInOptions, 'keys'>,
  importerEnv: Record<string, string> = {},
  apiEnv: Record<string, string> = {},
) {
  const asc = await startAscStandIn({
    apps: [APP, OTHER_APP],
    seed: 11,
    firstDate: FIRST,
    lastProcessingDate: LAST_PROCESSING,
    ...standIn,
  });
  const api = await startApi(database, redis, {
    SECRETS_KEY,
    ASC_API_ORIGIN: asc.url,
    LOG_LEVEL: 'debug',
    ...apiEnv,
  });
  const captured = captureLog();
  const importer = await startAscImport(
    parseAscImportEnv({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: redis.prefix,
      HEALTH_PORT: '0',
      SECRETS_KEY,
      ASC_API_ORIGIN: asc.url,
      ASC_TIMEOUT_MS: '5000',
      ASC_RETRY_BASE_DELAY_MS: '50',
      ASC_MAX_PAUSE_MS: '50',
      ...importerEnv,
    }),
    { handleSignals: false, log: captured.log },
  );
  return {
    asc,
    api,
    logs: captured.lines,
    close: async () => {
      await importer.close();
      await api.close();
      await asc.close();
    },
  };
}

const call = (
  api: TTestApi,
  user: TTestUser,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) => api.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

async function connect(api: TTestApi, user: TTestUser, key: { keyId: string; privatePem: string }) {
  return call(api, user, 'POST', '/api/asc/connections', {
    name: 'Constructed team',
    issuerId: ISSUER,
    keyId: key.keyId,
    privateKey: key.privatePem,
  });
}

async function importApp(
  api: TTestApi,
  user: TTestUser,
  connectionId: string,
  appId = APP.id,
): Promise<TAscImport> {
  const res = await call(
    api,
    user,
    'POST',
    `/api/asc/connections/${connectionId}/apps/${appId}/import`,
  );
  expect(res.statusCode, res.body).toBe(202);
  const { importId } = res.json<{ importId: string }>();
  let last: TAscImport | null = null;
  await vi.waitUntil(async () => {
    const r = await call(api, user, 'GET', `/api/asc/imports/${importId}`);
    last = ZAscImport.parse(r.json());
    return last.state === 'done' || last.state === 'failed';
  }, WAIT);
  return last!;
}

async function metrics(
  api: TTestApi,
  user: TTestUser,
  connectionId: string,
  query: string,
  appId = APP.id,
): Promise<TAscMetrics> {
  const res = await call(
    api,
    user,
    'GET',
    `/api/asc/connections/${connectionId}/apps/${appId}/metrics?${query}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return ZAscMetrics.parse(res.json());
}

/** The expected metric rows from the stand-in's truth: Counts summed per Date and source type. */
function expected(asc: TAscStandIn, filter: (r: TRecord) => boolean = () => true, appId = APP.id) {
  const out = new Map<
    string,
    {
      impressions: number;
      productPageViews: number;
      firstTimeDownloads: number;
      redownloads: number;
    }
  >();
  const add = (
    r: TRecord,
    field: 'impressions' | 'productPageViews' | 'firstTimeDownloads' | 'redownloads',
  ) => {
    const key = `${r['Date']}|${r['Source Type']}`;
    const row = out.get(key) ?? {
      impressions: 0,
      productPageViews: 0,
      firstTimeDownloads: 0,
      redownloads: 0,
    };
    row[field] += Number(r['Counts']);
    out.set(key, row);
  };
  for (const records of asc.truth(appId, 'engagement').values()) {
    for (const r of records.filter(filter)) {
      if (r['Event'] === 'Impression') add(r, 'impressions');
      if (r['Event'] === 'Page view') add(r, 'productPageViews');
    }
  }
  for (const records of asc.truth(appId, 'downloads').values()) {
    for (const r of records.filter(filter)) {
      if (r['Download Type'] === 'First-time download') add(r, 'firstTimeDownloads');
      if (r['Download Type'] === 'Redownload') add(r, 'redownloads');
    }
  }
  return out;
}

const asMap = (m: TAscMetrics) =>
  new Map(
    m.rows.map((r) => [
      `${r.date}|${r.sourceType}`,
      {
        impressions: r.impressions,
        productPageViews: r.productPageViews,
        firstTimeDownloads: r.firstTimeDownloads,
        redownloads: r.redownloads,
      },
    ]),
  );

describe('App Store Connect', () => {
  it('connects a key, imports both reports with corrections, answers the true figures, fetches nothing twice, and keeps the key secret', async ({
    database,
    redis,
  }) => {
    const key = { ...keyPair(), keyId: 'TESTKEY001' };
    const stdout: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    // The gateway logs to stdout (debug level here): every line is kept to search, none shown.
    process.stdout.write = (chunk: string | Uint8Array) => {
      stdout.push(String(chunk));
      return true;
    };
    const sys = await startSystem(database, redis, {
      keys: [{ issuerId: ISSUER, keyId: key.keyId, publicKey: key.publicPem, role: 'ADMIN' }],
      // Other column orders than Apple's documented ones, and a column Apple may add later.
      columns: {
        engagement: [
          'Territory',
          'Counts',
          'Event',
          'Device',
          'Unique Counts',
          'Source Type',
          'App Apple Identifier',
          'Date',
          'Page Type',
          'App Name',
        ],
        downloads: [
          'Source Type',
          'Date',
          'Counts',
          'Download Type',
          'Territory',
          'App Apple Identifier',
          'Device',
          'Page Type',
          'Campaign',
        ],
      },
      pageSize: 7,
      rowsPerSegment: 400,
    });
    try {
      const alice = await newUser(database.db);
      const bob = await newUser(database.db);

      // Bad keys: not EC P-256, and a key App Store Connect does not know.
      const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString();
      const notEc = await connect(sys.api, alice, { keyId: key.keyId, privatePem: rsa });
      expect(notEc.statusCode).toBe(400);
      expect(notEc.json<{ message: string }>().message).toMatch(/EC P-256/);
      const unknown = await connect(sys.api, alice, {
        keyId: 'UNKNOWN001',
        privatePem: keyPair().privatePem,
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<{ message: string }>().message).toMatch(
        /did not accept the API key \(401\)/,
      );

      const created = await connect(sys.api, alice, key);
      expect(created.statusCode, created.body).toBe(201);
      const conn = ZAscConnection.parse(created.json());
      expect(conn.apps).toEqual([
        { appId: APP.id, name: APP.name, bundleId: APP.bundleId },
        { appId: OTHER_APP.id, name: OTHER_APP.name, bundleId: OTHER_APP.bundleId },
      ]);
      expect((await call(sys.api, bob, 'GET', `/api/asc/connections/${conn.id}`)).statusCode).toBe(
        404,
      );
      expect(
        (await call(sys.api, bob, 'POST', `/api/asc/connections/${conn.id}/apps/${APP.id}/import`))
          .statusCode,
      ).toBe(404);
      expect(
        (
          await call(
            sys.api,
            bob,
            'GET',
            `/api/asc/connections/${conn.id}/apps/${APP.id}/metrics?from=${FIRST}&to=${LAST_PROCESSING}`,
          )
        ).statusCode,
      ).toBe(404);

      const done = await importApp(sys.api, alice, conn.id);
      expect(done).toMatchObject({ state: 'done', error: null, reportsFound: 4 });
      // 45 processing days x 2 reports; the ONGOING and the snapshot list the same instances.
      expect(done.instances).toBe(90);
      expect(done.segments).toBeGreaterThan(90);
      expect(
        sys.asc
          .requests()
          .map((r) => r.accessType)
          .sort(),
      ).toEqual(['ONE_TIME_SNAPSHOT', 'ONGOING']);

      const all = await metrics(sys.api, alice, conn.id, `from=${FIRST}&to=${LAST_PROCESSING}`);
      const truth = expected(sys.asc);
      expect(all.rows.length).toBe(truth.size);
      expect(asMap(all)).toEqual(truth);
      // A corrected day (stated again 8 days after it) answers the correction.
      const corrected = [...sys.asc.truth(APP.id, 'downloads').keys()].filter(
        (d) => Math.floor(Date.parse(d) / 86_400_000) % 29 === 0,
      );
      expect(corrected.length).toBeGreaterThan(0);
      // The Dates no instance processed three days after them carried yet are provisional.
      const provisional = [
        ...new Set(all.rows.filter((r) => r.provisional).map((r) => r.date)),
      ].sort();
      expect(provisional).toEqual(['2026-04-13', '2026-04-14']);
      expect(all.territories).toEqual(['DE', 'GB', 'US']);
      expect(all.devices).toEqual(['iPad', 'iPhone']);

      const gb = await metrics(
        sys.api,
        alice,
        conn.id,
        `from=${FIRST}&to=${LAST_PROCESSING}&territory=GB`,
      );
      expect(asMap(gb)).toEqual(expected(sys.asc, (r) => r['Territory'] === 'GB'));
      const bad = await call(
        sys.api,
        alice,
        'GET',
        `/api/asc/connections/${conn.id}/apps/${APP.id}/metrics?from=2026-04-10&to=2026-04-01`,
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toMatch(/from must not be after to/);

      // A second import fetches no segment again.
      const segmentsBefore = sys.asc.hits.get('segment');
      const again = await importApp(sys.api, alice, conn.id);
      expect(again).toMatchObject({ state: 'done', instances: 0, segments: 0, rows: 0 });
      expect(sys.asc.hits.get('segment')).toBe(segmentsBefore);

      // The key: in no answer, log line, job payload or database row in clear.
      const listed = await call(sys.api, alice, 'GET', '/api/asc/connections');
      const secretParts = pemBody(key.privatePem);
      const haystacks = [listed.body, created.body, ...stdout, ...sys.logs];
      const redisConn = createRedis(redis.url, { role: 'producer', name: 'asc-test' });
      try {
        for (const k of await redisConn.keys(`${redis.prefix}:*`)) {
          const type = await redisConn.type(k);
          if (type === 'hash') haystacks.push(JSON.stringify(await redisConn.hgetall(k)));
          else if (type === 'string') haystacks.push((await redisConn.get(k)) ?? '');
          else if (type === 'list')
            haystacks.push(JSON.stringify(await redisConn.lrange(k, 0, -1)));
        }
      } finally {
        redisConn.disconnect();
      }
      const tables = await sql<{
        table_name: string;
      }>`select table_name from information_schema.tables where table_schema = 'public'`.execute(
        database.db,
      );
      for (const { table_name } of tables.rows) {
        const rows = await sql<{
          t: string;
        }>`select t::text as t from ${sql.table(table_name)} t`.execute(database.db);
        haystacks.push(...rows.rows.map((r) => r.t));
      }
      // The searched logs are real: the gateway's request lines and the importer's lines.
      expect(stdout.join('')).toContain('/api/asc/connections');
      expect(sys.logs.join('')).toContain('App Store Connect import finished');
      for (const part of secretParts) {
        for (const h of haystacks) expect(h.includes(part)).toBe(false);
      }

      // Delete erases the sealed key with the connection.
      expect(
        (await call(sys.api, alice, 'DELETE', `/api/asc/connections/${conn.id}`)).statusCode,
      ).toBe(204);
      const left = await database.db
        .selectFrom('asc_connections')
        .select('id')
        .where('id', '=', conn.id)
        .execute();
      expect(left).toEqual([]);
    } finally {
      process.stdout.write = write;
      await sys.close();
    }
  });

  it('replaces an ONGOING request stopped for inactivity, lists segments again when their URLs expired, and rides out 429s', async ({
    database,
    redis,
  }) => {
    const key = { ...keyPair(), keyId: 'TESTKEY002' };
    const sys = await startSystem(database, redis, {
      keys: [{ issuerId: ISSUER, keyId: key.keyId, publicKey: key.publicPem, role: 'ADMIN' }],
      firstDate: '2026-04-09',
      expireFirstListing: true,
      existingRequests: [{ appId: APP.id, accessType: 'ONGOING', stoppedDueToInactivity: true }],
      rateLimit: 8,
      rateWindowMs: 1_000,
    });
    try {
      const user = await newUser(database.db);
      const conn = ZAscConnection.parse((await connect(sys.api, user, key)).json());
      const done = await importApp(sys.api, user, conn.id);
      expect(done, done.error ?? '').toMatchObject({ state: 'done', instances: 12 });
      // Every instance's first listing gave expired URLs: each was listed twice.
      expect(sys.asc.hits.get('segments')).toBe(24);
      expect(sys.asc.hits.get('429')).toBeGreaterThan(0);
      // The ONGOING request stopped for inactivity was replaced by a new one.
      expect(sys.asc.requests().map((r) => [r.accessType, r.stoppedDueToInactivity])).toEqual([
        ['ONGOING', true],
        ['ONGOING', false],
        ['ONE_TIME_SNAPSHOT', false],
      ]);
      const all = await metrics(sys.api, user, conn.id, `from=2026-04-09&to=${LAST_PROCESSING}`);
      expect(asMap(all)).toEqual(expected(sys.asc));
    } finally {
      await sys.close();
    }
  });

  it('explains the 403 of a first report request made by a key without the Admin role, and keeps to the connections limit', async ({
    database,
    redis,
  }) => {
    const key = { ...keyPair(), keyId: 'TESTKEY003' };
    const sys = await startSystem(
      database,
      redis,
      {
        keys: [
          {
            issuerId: ISSUER,
            keyId: key.keyId,
            publicKey: key.publicPem,
            role: 'SALES_AND_REPORTS',
          },
        ],
      },
      {},
      { ASC_CONNECTIONS_MAX_PER_USER: '1' },
    );
    try {
      const user = await newUser(database.db);
      const conn = ZAscConnection.parse((await connect(sys.api, user, key)).json());
      const failed = await importApp(sys.api, user, conn.id);
      expect(failed.state).toBe('failed');
      expect(failed.error).toMatch(
        /first report request of an app needs a key with the Admin role/,
      );
      expect(sys.asc.requests()).toEqual([]);
      const second = await connect(sys.api, user, key);
      expect(second.statusCode).toBe(409);
      expect(second.json<{ message: string }>().message).toMatch(
        /limit of 1 App Store Connect connections \(ASC_CONNECTIONS_MAX_PER_USER\)/,
      );
    } finally {
      await sys.close();
    }
  });

  it('imports the daily reports when the snapshot of history is refused to a non-Admin key, saying so', async ({
    database,
    redis,
  }) => {
    const key = { ...keyPair(), keyId: 'TESTKEY004' };
    const sys = await startSystem(database, redis, {
      keys: [{ issuerId: ISSUER, keyId: key.keyId, publicKey: key.publicPem, role: 'FINANCE' }],
      firstDate: '2026-04-05',
      // An Admin made the ONGOING request earlier; no snapshot was ever requested.
      existingRequests: [{ appId: APP.id, accessType: 'ONGOING', stoppedDueToInactivity: false }],
    });
    try {
      const user = await newUser(database.db);
      const conn = ZAscConnection.parse((await connect(sys.api, user, key)).json());
      const done = await importApp(sys.api, user, conn.id);
      expect(done, done.error ?? '').toMatchObject({
        state: 'done',
        error: null,
        notice: SNAPSHOT_REFUSED_NOTICE,
        reportsFound: 2,
        instances: 20,
      });
      expect(sys.asc.hits.get('create-request')).toBe(1);
      expect(sys.asc.requests().map((r) => r.accessType)).toEqual(['ONGOING']);
      const all = await metrics(sys.api, user, conn.id, `from=2026-04-05&to=${LAST_PROCESSING}`);
      expect(all.rows.length).toBeGreaterThan(0);
      expect(asMap(all)).toEqual(expected(sys.asc));
    } finally {
      await sys.close();
    }
  });

  it('picks the Detailed reports of an app that has no Standard ones', async ({
    database,
    redis,
  }) => {
    const key = { ...keyPair(), keyId: 'TESTKEY005' };
    const sys = await startSystem(database, redis, {
      keys: [{ issuerId: ISSUER, keyId: key.keyId, publicKey: key.publicPem, role: 'ADMIN' }],
      firstDate: '2026-04-08',
      detailedApps: [OTHER_APP.id],
    });
    try {
      const user = await newUser(database.db);
      const conn = ZAscConnection.parse((await connect(sys.api, user, key)).json());
      const done = await importApp(sys.api, user, conn.id, OTHER_APP.id);
      // Two requests (ONGOING and the snapshot) with both Detailed reports each.
      expect(done, done.error ?? '').toMatchObject({
        state: 'done',
        error: null,
        reportsFound: 4,
        instances: 14,
      });
      const all = await metrics(
        sys.api,
        user,
        conn.id,
        `from=2026-04-08&to=${LAST_PROCESSING}`,
        OTHER_APP.id,
      );
      expect(all.rows.length).toBeGreaterThan(0);
      expect(asMap(all)).toEqual(expected(sys.asc, () => true, OTHER_APP.id));
    } finally {
      await sys.close();
    }
  });

  it('replaces an earlier day with the correction a later instance brings', async ({
    database,
    redis,
  }) => {
    const key = { ...keyPair(), keyId: 'TESTKEY006' };
    // The stand-in restates every 29th day (by day number) 8 days after it: the first such day
    // from 2026-04-01 on, with instances up to the day before its correction arrives.
    const dayNumber = (d: string) => Math.floor(Date.parse(`${d}T00:00:00Z`) / 86_400_000);
    const isoOf = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);
    let n = dayNumber('2026-04-01');
    while (n % 29 !== 0) n++;
    const corrected = isoOf(n);
    const sys = await startSystem(database, redis, {
      keys: [{ issuerId: ISSUER, keyId: key.keyId, publicKey: key.publicPem, role: 'ADMIN' }],
      firstDate: '2026-04-01',
      lastProcessingDate: isoOf(n + 7),
    });
    try {
      const user = await newUser(database.db);
      const conn = ZAscConnection.parse((await connect(sys.api, user, key)).json());
      const figuresOf = async () =>
        database.db
          .selectFrom('asc_figures')
          .select(['measure', 'source_type', 'territory', 'device', 'counts'])
          .where('connection_id', '=', conn.id)
          .where('kind', '=', 'downloads')
          .where('date', '=', corrected)
          .orderBy('measure')
          .orderBy('source_type')
          .orderBy('territory')
          .orderBy('device')
          .execute();
      const ownerOf = async () =>
        (
          await database.db
            .selectFrom('asc_day_owners')
            .select('processing_date')
            .where('connection_id', '=', conn.id)
            .where('kind', '=', 'downloads')
            .where('date', '=', corrected)
            .executeTakeFirstOrThrow()
        ).processing_date;
      const day = `from=${corrected}&to=${corrected}`;

      expect((await importApp(sys.api, user, conn.id)).state).toBe('done');
      const before = await metrics(sys.api, user, conn.id, day);
      const figuresBefore = await figuresOf();
      // The final statement, made three days after the Date.
      expect(await ownerOf()).toBe(isoOf(n + 3));
      expect(asMap(before)).toEqual(expected(sys.asc, (r) => r['Date'] === corrected));

      // The next day's instance restates the Date: one record fewer, another 7 higher.
      sys.asc.setLastProcessingDate(isoOf(n + 9));
      const next = await importApp(sys.api, user, conn.id);
      expect(next).toMatchObject({ state: 'done', instances: 4 });
      expect(await ownerOf()).toBe(isoOf(n + 8));
      const after = await metrics(sys.api, user, conn.id, day);
      expect(asMap(after)).toEqual(expected(sys.asc, (r) => r['Date'] === corrected));
      expect(asMap(after)).not.toEqual(asMap(before));
      const figuresAfter = await figuresOf();
      // The correction's record set replaced the old one as a whole, not merged into it.
      const truthFigures = new Map<string, number>();
      for (const r of sys.asc.truth(APP.id, 'downloads').get(corrected) ?? []) {
        const k = [
          r['Download Type']!.toLowerCase().replace(/[^a-z0-9]/g, ''),
          r['Source Type'],
          r['Territory'],
          r['Device'],
        ].join('|');
        truthFigures.set(k, (truthFigures.get(k) ?? 0) + Number(r['Counts']));
      }
      const stored = new Map(
        figuresAfter.map((f) => [
          [f.measure, f.source_type, f.territory, f.device].join('|'),
          Number(f.counts),
        ]),
      );
      expect(stored).toEqual(truthFigures);
      expect(figuresAfter).not.toEqual(figuresBefore);
    } finally {
      await sys.close();
    }
  });

  it('saves a dashboard on imported figures, named from the connection and only on its own, its PDF fingerprint following the imports', async ({
    database,
    redis,
  }) => {
    const key = { ...keyPair(), keyId: 'TESTKEY007' };
    const sys = await startSystem(database, redis, {
      keys: [{ issuerId: ISSUER, keyId: key.keyId, publicKey: key.publicPem, role: 'ADMIN' }],
      firstDate: '2026-04-08',
      lastProcessingDate: '2026-04-12',
    });
    try {
      const alice = await newUser(database.db);
      const bob = await newUser(database.db);
      const conn = ZAscConnection.parse((await connect(sys.api, alice, key)).json());
      expect((await importApp(sys.api, alice, conn.id)).state).toBe('done');
      const config = {
        createdFrom: 'app_store_connect',
        connectionId: conn.id,
        appId: APP.id,
        territory: 'GB',
        device: null,
        dateRange: { start: '2026-04-08', end: '2026-04-11' },
        selectedMetrics: ['Total Downloads'],
      };
      const save = (user: TTestUser, configJson: Record<string, unknown>) =>
        call(sys.api, user, 'POST', '/api/dashboards', {
          // Whatever the body says, the name comes from the connection's record of the app.
          appName: 'Something else',
          territory: 'Elsewhere',
          configJson,
        });
      const res = await save(alice, config);
      expect(res.statusCode, res.body).toBe(200);
      const saved = ZDashboard.parse(res.json());
      expect(saved).toMatchObject({ appName: APP.name, territory: 'GB', configJson: config });
      expect(saved.name).toMatch(/^Constructed Weather GB \d{2}-\d{2}-\d{4}$/);
      const all = ZDashboard.parse((await save(alice, { ...config, territory: null })).json());
      expect(all.territory).toBe('All territories');
      const listed = await call(sys.api, alice, 'GET', '/api/dashboards');
      expect(listed.json<Array<{ id: string }>>().map((d) => d.id)).toEqual([all.id, saved.id]);

      // Another user's connection, an app the key does not see, a config naming no app.
      for (const [user, body, status] of [
        [bob, config, 404],
        [alice, { ...config, appId: '999' }, 404],
        [alice, { ...config, appId: undefined }, 400],
      ] as const) {
        const refused = await save(user, body);
        expect(refused.statusCode, refused.body).toBe(status);
      }

      // The PDF is rendered again once an import brings new instances, not before.
      const versionOf = () =>
        currentVersion(database.db, {
          kind: 'dashboard',
          subjectId: saved.id,
          userId: alice.userId,
        });
      const v1 = await versionOf();
      expect((await importApp(sys.api, alice, conn.id)).instances).toBe(0);
      expect(await versionOf()).toBe(v1);
      sys.asc.setLastProcessingDate('2026-04-13');
      expect((await importApp(sys.api, alice, conn.id)).instances).toBe(2);
      const v2 = await versionOf();
      expect(v2).not.toBe(v1);
      // Once the connection is gone, so is the dashboard's PDF (its figures went with it).
      await call(sys.api, alice, 'DELETE', `/api/asc/connections/${conn.id}`);
      await expect(versionOf()).rejects.toThrow(/App Store Connect app not found/);
    } finally {
      await sys.close();
    }
  });
});
