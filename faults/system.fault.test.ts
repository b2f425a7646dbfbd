/**
 * The fault suite: the whole system, run by `pnpm start`'s supervisor as real processes on a
 * Redis and a database of its own, put through what production does to it. Each case checks
 * that nothing was lost or duplicated (an audit ends done with exactly one `complete`, an
 * upload gets its merged data and one dataset) and prints its recovery time. The bounds are
 * correctness bounds with wide margins (a case that never recovers fails); the recovery
 * figures themselves are printed, not asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, readSse, type TSseMessage } from '@aso/api-client';
import { TEXT_ERROR } from '@aso/contracts';
import { FaultSystem, REPO_ROOT, until } from './support/fault.system';

const SPOTIFY = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';
const INSTAGRAM = 'https://apps.apple.com/us/app/instagram/id389801252';
/** The recorded data (house rule: read in place, never copied). */
const FIXTURES_DIR = process.env.FIXTURES_DIR || join(REPO_ROOT, '../shared/fixtures');
/** Wide correctness bound of a recovery (ms): far above what the settings give (about 20 s). */
const RECOVERY_BOUND_MS = 90_000;

let system: FaultSystem;
let token = '';
let adminCode = '';

/** Prints one recovery figure (collected by the CI log and by `pnpm bench`'s readers). */
function recovered(what: string, ms: number): void {
  console.log(`[faults] ${what}: recovered in ${(ms / 1000).toFixed(1)} s`);
}

/** Registers a user with a fresh access code; answers its session token and personal code. */
async function newUser(tag: string) {
  const { code } = await system.api.generateCode(adminCode, 1);
  const email = `faults-${tag}-${Date.now()}@example.com`;
  const answer = await system.api.register(email, code.code!);
  return { email, token: answer.sessionToken, signInCode: answer.signInCode };
}

/** Waits until the audit is done or failed; answers its final status. */
async function settle(auditId: string, timeoutMs = RECOVERY_BOUND_MS): Promise<string> {
  let status = '';
  await until(
    `audit ${auditId} finished`,
    async () => {
      status = (await system.api.audit(token, auditId)).status;
      return status === 'done' || status === 'failed';
    },
    timeoutMs,
    250,
  );
  return status;
}

/** The progress stream's `complete` and `error` entries of an audit (in Redis). */
async function terminalEvents(auditId: string): Promise<string[]> {
  const redis = system.redisClient();
  try {
    const entries = await redis.xrange(`${system.prefix}:progress:${auditId}`, '-', '+');
    return entries
      .map(([, fields]) => (JSON.parse(fields[1] ?? '{}') as { type?: string }).type ?? '')
      .filter((t) => t === 'complete' || t === 'error');
  } finally {
    redis.disconnect();
  }
}

/** How many jobs of `queue` are active now. */
async function activeJobs(queue: string): Promise<number> {
  const redis = system.redisClient();
  try {
    return await redis.llen(`${system.prefix}:${queue}:active`);
  } finally {
    redis.disconnect();
  }
}

/** Reads an audit's SSE stream from `lastEventId` until it ends; answers the messages. */
async function readProgress(auditId: string, lastEventId?: string, max = Infinity) {
  const out: TSseMessage[] = [];
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), RECOVERY_BOUND_MS);
  try {
    for await (const m of readSse(`${system.apiUrl}/api/progress?auditId=${auditId}`, {
      headers: {
        authorization: `Bearer ${token}`,
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
      signal: ac.signal,
    })) {
      out.push(m);
      if (out.length >= max) break;
    }
  } finally {
    clearTimeout(timer);
  }
  return out;
}

/** Asserts the audit ended done with exactly one `complete` event in its stream. */
async function expectCompletedOnce(auditId: string): Promise<void> {
  expect(await settle(auditId)).toBe('done');
  await until('the complete event', async () => (await terminalEvents(auditId)).length > 0, 10_000);
  expect(await terminalEvents(auditId)).toEqual(['complete']);
}

beforeAll(async () => {
  // Every store answer takes 1.5 s: a scrape is in flight long enough to be killed mid-job.
  system = await FaultSystem.start({ storeDelayMs: 1_500 });
  adminCode = system.adminCode;
  token = (await newUser('main')).token;
}, 240_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

describe('fault suite', () => {
  it('kill -9 of the scraper mid-job: the audit completes once, the scraper is restarted', async () => {
    const { id } = await system.api.analyze(token, {
      appStoreUrl: SPOTIFY,
      competitorUrl1: INSTAGRAM,
    });
    await until('a scrape running', async () => (await activeJobs('scrape')) > 0, 30_000, 20);
    const killedAt = Date.now();
    await system.killAndAwaitRestart('scraper', /\[scraper\s*\] .*health endpoint listening/);
    await expectCompletedOnce(id);
    recovered('kill -9 of the scraper mid-scrape -> audit complete', Date.now() - killedAt);
  });

  it('kill -9 of the analyzer: the audit completes once, the analyzer is restarted', async () => {
    const { id } = await system.api.analyze(token, { appStoreUrl: SPOTIFY });
    // Killed while the audit's jobs are in flight: its analysis runs on the restarted one.
    await until('a scrape running', async () => (await activeJobs('scrape')) > 0, 30_000, 20);
    const killedAt = Date.now();
    await system.killAndAwaitRestart('analyzer', /\[analyzer\s*\] .*health endpoint listening/);
    await expectCompletedOnce(id);
    recovered('kill -9 of the analyzer mid-audit -> audit complete', Date.now() - killedAt);
  });

  it('pg_terminate_backend of every connection: no process dies, audits complete once', async () => {
    const restartsBefore = ['api', 'scraper', 'analyzer', 'csv-merge'].map((s) =>
      system.restarts(s),
    );
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await system.api.analyze(token, { appStoreUrl: SPOTIFY })).id),
    );
    const cutAt = Date.now();
    for (let i = 0; i < 3; i++) {
      await system.terminateDatabaseSessions();
      await new Promise((r) => setTimeout(r, 300));
    }
    for (const id of ids) await expectCompletedOnce(id);
    recovered('pg_terminate_backend x3 during 3 audits -> all complete', Date.now() - cutAt);
    const ready = await fetch(`${system.apiUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(['api', 'scraper', 'analyzer', 'csv-merge'].map((s) => system.restarts(s))).toEqual(
      restartsBefore,
    );
  });

  it('a Redis restart mid-audit (empty): audits are queued again and complete once; the scheduler is back', async () => {
    const ids = await Promise.all(
      [1, 2].map(async () => (await system.api.analyze(token, { appStoreUrl: SPOTIFY })).id),
    );
    await until('a scrape running', async () => (await activeJobs('scrape')) > 0, 30_000, 20);
    // A client follows the first audit's stream across the restart.
    const followed = readProgress(ids[0]!);
    await new Promise((r) => setTimeout(r, 300));
    await system.redis.kill();
    await new Promise((r) => setTimeout(r, 2_000));
    await system.redis.up();
    const upAt = Date.now();
    for (const id of ids) await expectCompletedOnce(id);
    recovered('Redis restart (empty) mid-audit -> audits complete', Date.now() - upAt);
    const messages = await followed;
    expect(messages.filter((m) => m.event === 'complete')).toHaveLength(1);
    // The csv-merge service owns the hourly cleanup scheduler: re-created on reconnect.
    const redis = system.redisClient();
    try {
      await until(
        'the cleanup job scheduler re-created',
        async () =>
          (await redis.exists(`${system.prefix}:maintenance:repeat:cleanup-expired-hourly`)) ===
            1 || (await redis.zcard(`${system.prefix}:maintenance:repeat`)) > 0,
        30_000,
      );
    } finally {
      redis.disconnect();
    }
  });

  it('SSE reconnects with Last-Event-ID lose and repeat nothing; past the end gets the terminal event', async () => {
    const { id } = await system.api.analyze(token, { appStoreUrl: SPOTIFY });
    const seen: TSseMessage[] = [];
    let last: string | undefined;
    // Reconnect after every 2 messages until the terminal one.
    for (let i = 0; i < 40 && !seen.some((m) => m.event === 'complete'); i++) {
      const part = await readProgress(id, last, 2);
      seen.push(...part);
      last = part.at(-1)?.id ?? last;
    }
    expect(await settle(id)).toBe('done');
    const full = await readProgress(id);
    expect(seen.map((m) => m.id)).toEqual(full.map((m) => m.id));
    expect(new Set(seen.map((m) => m.id)).size).toBe(seen.length);
    // Resuming past the end: the terminal event again, so the client stops reconnecting.
    const again = await readProgress(id, full.at(-1)!.id);
    expect(again.map((m) => m.event)).toEqual(['complete']);
  });

  it('kill -9 of csv-merge mid-merge: the upload still gets its merged data, one dataset', async () => {
    const user = await newUser('merge');
    const file = (name: string) => ({
      filename: name,
      bytes: readFileSync(join(FIXTURES_DIR, 'asc-analytics', name)),
    });
    const upload = system.api.upload(user.token, {
      conversionCSV: file(
        'constructed_conversion_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
      ),
      redownloadsCSV: file(
        'constructed_redownloads_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
      ),
    });
    // The merge of these files is short: the worker is killed as soon as the job is queued
    // or taken, so it runs again (or for the first time) on the restarted worker.
    await until(
      'the merge job queued',
      async () => {
        const redis = system.redisClient();
        try {
          const [waiting, active] = await Promise.all([
            redis.llen(`${system.prefix}:csv-merge:wait`),
            redis.llen(`${system.prefix}:csv-merge:active`),
          ]);
          return waiting + active > 0;
        } finally {
          redis.disconnect();
        }
      },
      30_000,
      5,
    ).catch(() => undefined);
    const killedAt = Date.now();
    await system.killAndAwaitRestart('csv-merge', /\[csv-merge\s*\] .*health endpoint listening/);
    const answer = await upload;
    recovered('kill -9 of csv-merge during an upload -> merged data', Date.now() - killedAt);
    expect(answer.mergedData.totalRows).toBe(92);
    const mine = await system.database.db
      .selectFrom('datasets as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .select('d.id')
      .where('u.email', '=', user.email)
      .execute();
    expect(mine.map((d) => d.id)).toEqual([answer.mergedData.downloadId]);
  });

  it('hostile uploads are refused fast with a 4xx naming the limit', async () => {
    const user = await newUser('hostile');
    const lines = Buffer.from('Date,Downloads,Impressions\n' + ',1,2\n'.repeat(2_000_000));
    const started = Date.now();
    const tooLong = await system.api
      .upload(user.token, { conversionCSV: { filename: 'lines.csv', bytes: lines } })
      .catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(ApiError);
    expect((tooLong as ApiError).status).toBe(400);
    expect((tooLong as ApiError).message).toMatch(/more than 5,000 data rows/);
    console.log(`[faults] 12 MB of short lines refused in ${Date.now() - started} ms`);

    const wide = ['Date', ...Array.from({ length: 150 }, (_, i) => `M${i}`)];
    const wideFile = Buffer.from(
      `${wide.join(',')}\n1/1/25,${wide
        .slice(1)
        .map(() => 1)
        .join(',')}\n`,
    );
    const tooWide = await system.api
      .upload(user.token, { redownloadsCSV: { filename: 'wide.csv', bytes: wideFile } })
      .catch((e: unknown) => e);
    expect((tooWide as ApiError).status).toBe(400);
    expect((tooWide as ApiError).message).toMatch(/151 columns, more than the 100/);
  });

  it('NUL bytes and lone surrogates are refused with 400, never 500', async () => {
    const calls: [string, string, unknown][] = [
      ['POST', '/api/login', { email: 'a@example.com', accessCode: 'a\u0000b' }],
      ['POST', '/api/analyze', { appStoreUrl: SPOTIFY, keywords: 'x\u0000y' }],
      [
        'POST',
        '/api/feedback',
        { auditId: '00000000-0000-4000-8000-000000000000', feedback: '\ud800' },
      ],
      [
        'POST',
        '/api/saved-audits',
        { auditId: '00000000-0000-4000-8000-000000000000', name: 'n\u0000' },
      ],
    ];
    for (const [method, path, body] of calls) {
      const res = await fetch(`${system.apiUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(TEXT_ERROR);
    }
    const del = await fetch(`${system.apiUrl}/api/admin/codes/a%00b`, {
      method: 'DELETE',
      headers: { 'x-access-code': adminCode },
    });
    expect(del.status).toBe(400);
  });

  it('a shared access code never signs anyone in as someone else', async () => {
    const { code } = await system.api.generateCode(adminCode, 2);
    const first = await system.api.register(`shared-a-${Date.now()}@example.com`, code.code!);
    const second = await system.api.register(`shared-b-${Date.now()}@example.com`, code.code!);
    const asFirst = await system.api.login(first.user.email, code.code!).catch((e: unknown) => e);
    expect((asFirst as ApiError).status).toBe(401);
    const wrongOwn = await system.api
      .login(first.user.email, second.signInCode)
      .catch((e: unknown) => e);
    expect((wrongOwn as ApiError).status).toBe(401);
    expect((await system.api.login(first.user.email, first.signInCode)).user.id).toBe(
      first.user.id,
    );
  });
});
