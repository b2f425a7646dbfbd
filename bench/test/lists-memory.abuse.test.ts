/**
 * The api holds its memory when users fill every collection to its limit and read every list
 * at once (docs/product.md#lists-and-pages): the api runs as its own process with its heap
 * limit (`packages/contracts/src/node-flags.ts`) and the soak benchmark's memory probe preloaded; several
 * users each store the most their limits allow (default settings) and walk every list, page by
 * page at the largest page size, in parallel with the admin's lists, while another user's
 * requests are timed. The api must answer them within 1 s (p99), never exit, and keep its heap
 * well inside its limit.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TBenchUser } from '../src/harness/bench.users';
import { BenchSystem, type TProcessMemory } from '../src/harness/bench.system';
import { parseStatusRssBytes, ProcessSampler } from '../src/probes/process.sampler';
import { percentile } from '../src/stats/stats.helpers';

/** Users who fill everything, and how long they read (ms). */
const HEAVY_USERS = 4;
const READ_MS = 20_000;
/**
 * Walkers per heavy user, each reading every list over and over, one request at a time (as
 * a browser tab does): with the admin's walker and the timed user, 18 requests at once.
 */
const WALKERS = 4;
/** Default limits of the api (services/api/src/env.ts), filled to the brim. */
const MAX = {
  dashboards: 50,
  savedAudits: 200,
  feedback: 500,
  watch: 20,
  shares: 50,
  keywordsPerApp: 100,
  keywordApps: 3,
  connections: 10,
} as const;
const PAGE_MAX = 200;
/** Notifications per heavy user (not a user's collection: a year of its listings' changes). */
const NOTIFICATIONS = 500;
/** The api's old-space limit is 512 MB: the heap must stay well inside it. */
const HEAP_BOUND_BYTES = 384e6;

let workDir = '';
let system: BenchSystem;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'aso-lists-memory-'));
  system = await BenchSystem.start({
    label: 'lists-memory',
    workDir,
    storeDelayMs: 0,
    logLevel: 'warn',
    apiEnv: { WRITE_RATE_LIMIT_PER_MIN: '1000000' },
  });
}, 180_000);

afterAll(async () => {
  await system?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** Runs `tasks` with at most `n` at once. */
async function pool<T>(n: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]!();
      }
    }),
  );
  return out;
}

/** A JSON call as `who` (a token or the admin code); answers status and body. */
async function call(
  who: { token?: string; adminCode?: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; link: string | null }> {
  const res = await fetch(`${system.api.baseUrl}${path}`, {
    method,
    headers: {
      ...(who.token ? { authorization: `Bearer ${who.token}` } : {}),
      ...(who.adminCode ? { 'x-access-code': who.adminCode } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text ? JSON.parse(text) : null,
    link: res.headers.get('link'),
  };
}

/** POSTs (or PUTs) and expects `status`. */
async function write(
  user: TBenchUser,
  path: string,
  body: unknown,
  status = 200,
): Promise<unknown> {
  const res = await call({ token: user.token }, 'POST', path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.json)}`).toBe(status);
  return res.json;
}

/** Everything one user may store, at the api's default limits; answers the lists to read. */
async function fill(user: TBenchUser, n: number): Promise<string[]> {
  const db = system.database.db;
  const { id: userId } = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', user.email)
    .executeTakeFirstOrThrow();
  // Audits (as the analyzer leaves them) to save, share and give feedback on.
  const audits = await db
    .insertInto('audits')
    .values(
      Array.from({ length: MAX.savedAudits }, (_, i) => ({
        user_id: userId,
        app_id: `7${n}${String(i).padStart(7, '0')}`,
        storefront: 'us',
        app_store_url: `https://apps.apple.com/us/app/id7${n}${String(i).padStart(7, '0')}`,
        app_name: `Constructed App ${i}`,
        inputs: JSON.stringify({}),
        status: 'done' as const,
        result: JSON.stringify({ constructed: true }),
        completed_at: new Date(),
      })),
    )
    .returning('id')
    .execute();
  const dataset = await db
    .insertInto('datasets')
    .values({
      user_id: userId,
      app_name: 'Constructed App',
      territory: 'United States',
      headers: JSON.stringify(['Date']),
      total_rows: 0,
      expires_at: new Date(Date.now() + 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // A dashboard configuration just under DASHBOARD_CONFIG_MAX_BYTES (16 KiB).
  const configJson = {
    downloadId: dataset.id,
    headers: Array.from({ length: 100 }, (_, i) => `Metric ${i} `.padEnd(150, 'x')),
    totalRows: 0,
    createdFrom: 'csv_upload',
  };
  const feedback = 'Constructed feedback. '.repeat(227).slice(0, 5000);
  const tasks: Array<() => Promise<unknown>> = [
    ...Array.from(
      { length: MAX.dashboards },
      () => () =>
        write(user, '/api/dashboards', {
          appName: 'Constructed App',
          territory: 'United States',
          configJson,
        }),
    ),
    ...audits.map(
      (a) => () => write(user, '/api/saved-audits', { auditId: a.id, storefront: 'us' }),
    ),
    ...Array.from(
      { length: MAX.feedback },
      (_, i) => () => write(user, '/api/feedback', { auditId: audits[i % 5]!.id, feedback }),
    ),
    ...Array.from(
      { length: MAX.watch },
      (_, i) => () =>
        write(
          user,
          '/api/watchlist',
          {
            appStoreUrl: `https://apps.apple.com/us/app/id8${n}${String(i).padStart(6, '0')}`,
            role: 'competitor',
          },
          201,
        ),
    ),
    ...Array.from(
      { length: MAX.shares },
      () => () => write(user, `/api/audit/${audits[0]!.id}/shares`, {}, 201),
    ),
    ...Array.from(
      { length: MAX.keywordApps },
      (_, a) => () =>
        write(
          user,
          '/api/keywords',
          {
            appStoreUrl: `https://apps.apple.com/us/app/id9${n}${a}00000`,
            terms: Array.from(
              { length: MAX.keywordsPerApp },
              (_, t) => `constructed term ${a} ${t}`,
            ),
          },
          201,
        ),
    ),
  ];
  await pool(8, tasks);
  await db
    .insertInto('asc_connections')
    .values(
      Array.from({ length: MAX.connections }, (_, i) => ({
        user_id: userId,
        name: `Constructed key ${i}`,
        issuer_id: '57246542-96fe-1a63-e053-0824d011072a',
        key_id: `CONSTR${i}XYZ`,
        private_key_sealed: 'constructed-not-a-seal',
        apps: JSON.stringify(
          Array.from({ length: 50 }, (_, a) => ({
            appId: `${a}`,
            name: `App ${a}`,
            bundleId: `com.example.a${a}`,
          })),
        ),
      })),
    )
    .execute();
  // A year of listing changes of the watched apps: a notification per snapshot.
  const snapshots = await db
    .insertInto('app_snapshots')
    .values(
      Array.from({ length: NOTIFICATIONS }, (_, i) => ({
        app_id: `8${n}${String(i % MAX.watch).padStart(6, '0')}`,
        storefront: 'us',
        app_name: 'Constructed App',
        fetched_at: new Date(),
        source_layout: 'constructed',
        listing: JSON.stringify({}),
      })),
    )
    .returning(['id', 'app_id'])
    .execute();
  await db
    .insertInto('notifications')
    .values(
      snapshots.map((s) => ({
        user_id: userId,
        snapshot_id: s.id,
        app_id: s.app_id,
        storefront: 'us',
        app_name: 'Constructed App',
        role: 'competitor',
        fields: ['title', 'subtitle', 'description', 'screenshots'],
        detected_at: new Date(),
      })),
    )
    .execute();
  // Past each limit, the next create is refused: the collections are full.
  for (const [path, body] of [
    ['/api/dashboards', { appName: 'Constructed App', territory: 'United States', configJson }],
    ['/api/feedback', { auditId: audits[0]!.id, feedback: 'one more' }],
    ['/api/audit/' + audits[1]!.id + '/shares', {}],
  ] as const) {
    expect((await call({ token: user.token }, 'POST', path, body)).status).toBe(409);
  }
  return [
    '/api/dashboards',
    '/api/saved-audits',
    ...audits.slice(0, 5).map((a) => `/api/feedback/${a.id}`),
    '/api/watchlist',
    '/api/shares',
    '/api/notifications',
    ...Array.from(
      { length: MAX.keywordApps },
      (_, a) => `/api/keywords?appId=9${n}${a}00000&storefront=us`,
    ),
    '/api/asc/connections',
  ].map((p) => `${p}${p.includes('?') ? '&' : '?'}limit=${PAGE_MAX}`);
}

/** Reads every page of `path`; answers how many items it held. */
async function walk(who: { token?: string; adminCode?: string }, path: string): Promise<number> {
  let next: string | null = path;
  let items = 0;
  while (next) {
    const res = await call(who, 'GET', next);
    expect(res.status, `${next}: ${JSON.stringify(res.json).slice(0, 200)}`).toBe(200);
    const body = res.json as unknown[] | { items: unknown[] };
    items += (Array.isArray(body) ? body : body.items).length;
    next = /^<([^>]+)>; rel="next"$/.exec(res.link ?? '')?.[1] ?? null;
  }
  return items;
}

/** `user`'s ordinary reads, one after the other, until `end`; answers their times (ms). */
async function timeReads(user: TBenchUser, end: number): Promise<number[]> {
  const ZMe = z.object({ user: z.object({ email: z.string() }) });
  const latencies: number[] = [];
  while (Date.now() < end) {
    for (const path of ['/api/me', '/api/saved-audits', '/api/watchlist', '/api/dashboards']) {
      const t0 = performance.now();
      const res = await call({ token: user.token }, 'GET', path);
      latencies.push(performance.now() - t0);
      expect(res.status).toBe(200);
      if (path === '/api/me') expect(ZMe.parse(res.json).user.email).toBe(user.email);
    }
  }
  return latencies;
}

describe('the api holds its memory under every list at once', () => {
  it(
    'answers another user within 1 s (p99) while full collections are read in parallel',
    { timeout: 600_000 },
    async () => {
      const users = await system.users(HEAVY_USERS + 1);
      const other = users.pop()!;
      const lists = await Promise.all(users.map((u, n) => fill(u, n)));
      const admin = { adminCode: system.adminCode };
      const adminLists = ['users', 'codes', 'cache', 'feedbacks', 'audit-history'].map(
        (l) => `/api/admin/${l}?limit=${PAGE_MAX}`,
      );
      // Every list holds what was stored: each user's walk reads it all.
      const counts = [];
      for (const p of lists[0]!) counts.push(await walk({ token: users[0]!.token }, p));
      expect(counts).toEqual([
        MAX.dashboards,
        MAX.savedAudits,
        ...[0, 1, 2, 3, 4].map(() => MAX.feedback / 5),
        MAX.watch,
        MAX.shares,
        NOTIFICATIONS,
        ...Array.from({ length: MAX.keywordApps }, () => MAX.keywordsPerApp),
        MAX.connections,
      ]);
      expect(await walk(admin, `/api/admin/feedbacks?limit=${PAGE_MAX}`)).toBe(
        HEAVY_USERS * MAX.feedback,
      );

      const pid = system.apiProcess.pid;
      const rss = () => {
        try {
          return (parseStatusRssBytes(readFileSync(`/proc/${pid}/status`, 'utf8')) ?? 0) / 1e6;
        } catch {
          return 0; // the process is gone: the checks below say so
        }
      };
      const before = await system.apiMemoryAfterGc();
      const samples: TProcessMemory[] = [];
      const rssSamples: number[] = [];
      const sampler = setInterval(() => {
        rssSamples.push(rss());
        void system.apiMemory().then(
          (m) => samples.push(m),
          () => undefined,
        );
      }, 250);

      // The same reads with nobody else reading: this run's baseline.
      const alone = await timeReads(other, Date.now() + 3_000);
      const cpu = new ProcessSampler([{ name: 'api', pid }], 500).start();
      const end = Date.now() + READ_MS;
      const readers = [
        ...users.flatMap((u, n) =>
          Array.from({ length: WALKERS }, async () => {
            let walked = 0;
            while (Date.now() < end) {
              for (const p of lists[n]!) await walk({ token: u.token }, p);
              walked++;
            }
            return walked;
          }),
        ),
        (async () => {
          let walked = 0;
          while (Date.now() < end) {
            for (const p of adminLists) await walk(admin, p);
            expect((await call(admin, 'GET', '/api/admin/audits')).status).toBe(200);
            walked++;
          }
          return walked;
        })(),
      ];
      // Meanwhile another user's ordinary reads, timed one after the other.
      const timed = timeReads(other, end);
      let walked: number[];
      let latencies: number[];
      try {
        walked = await Promise.all(readers);
        latencies = await timed;
      } finally {
        clearInterval(sampler);
      }
      const [usage] = cpu.stop();
      const after = await system.apiMemoryAfterGc();

      const peakHeap = Math.max(...samples.map((s) => s.heapUsed));
      const p99 = percentile(latencies, 99);
      console.log(
        `[lists-memory] another user's reads alone: p50 ${percentile(alone, 50).toFixed(0)} ms, ` +
          `p99 ${percentile(alone, 99).toFixed(0)} ms; ` +
          `${walked.reduce((a, b) => a + b, 0)} full walks; meanwhile: ` +
          `${latencies.length}, p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms; ` +
          `api heap used ${(before.heapUsed / 1e6).toFixed(0)} MB before, peak ${(peakHeap / 1e6).toFixed(0)} MB, ` +
          `${(after.heapUsed / 1e6).toFixed(0)} MB after (collected); peak RSS ${Math.max(...rssSamples).toFixed(0)} MB; ` +
          `api CPU ${usage!.avgCpuPct.toFixed(0)} % of a core`,
      );
      expect(walked.every((w) => w >= 1)).toBe(true);
      expect(samples.length).toBeGreaterThan(10);
      expect(p99).toBeLessThan(1_000);
      expect(peakHeap).toBeLessThan(HEAP_BOUND_BYTES);
      // The api never exited (nor was restarted: it is the same process) and still answers.
      expect(system.apiProcess.hasExited).toBe(false);
      expect(system.apiProcess.pid).toBe(pid);
      expect((await fetch(`${system.api.baseUrl}/readyz`)).status).toBe(200);
    },
  );
});
