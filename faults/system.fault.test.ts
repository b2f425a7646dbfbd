/**
 * The fault suite: the whole system, run by `pnpm start`'s supervisor as real processes on a
 * Redis server and a PostgreSQL server of its own, put through what production does to it (the
 * scenarios live in `@aso/testkit/system`, which `pnpm bench faults` runs too). Each case checks
 * that nothing was lost or duplicated (an audit ends done with exactly one `complete`, an
 * upload gets its merged data and one dataset) and prints its recovery time. The bounds are
 * correctness bounds with wide margins (a case that never recovers fails); the recovery
 * figures themselves are printed, not asserted.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '@aso/api-client';
import { TEXT_ERROR } from '@aso/contracts';
import {
  FAULT_APP_URL as SPOTIFY,
  FaultSystem,
  killApiMidAudit,
  killApiMidUpload,
  killMergeMidUpload,
  killRenderMidReport,
  killScraperMidWatchRead,
  killWorkerMidAudit,
  RECOVERY_BOUND_MS,
  REPO_ROOT,
  restartPostgresMidAudit,
  restartPostgresMidMerge,
  restartRedisMidAudit,
  restartRedisMidMerge,
  terminateSessionsMidAudit,
  terminateSessionsMidMerge,
  until,
  type TAuditEnd,
  type TUploadFiles,
} from '@aso/testkit/system';

/** The recorded data (house rule: read in place, never copied). */
const FIXTURES_DIR = process.env.FIXTURES_DIR || join(REPO_ROOT, '../shared/fixtures');

let system: FaultSystem;
let token = '';
let adminCode = '';

/** Prints one recovery figure (collected by the CI log; `pnpm bench faults` records them). */
function recovered(what: string, ms: number): void {
  console.log(`[faults] ${what}: recovered in ${(ms / 1000).toFixed(1)} s`);
}

/** The two CONSTRUCTED exports of 92 days each (92 merged rows). */
function exports(): TUploadFiles {
  const file = (name: string) => ({
    filename: name,
    bytes: readFileSync(join(FIXTURES_DIR, 'asc-analytics', name)),
  });
  return {
    conversionCSV: file(
      'constructed_conversion_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
    ),
    redownloadsCSV: file(
      'constructed_redownloads_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
    ),
  };
}

/** Every audit ended done with exactly one `complete` event in its stream. */
function expectCompletedOnce(audits: TAuditEnd[]): void {
  expect(audits.map((a) => [a.id, a.status, a.terminal])).toEqual(
    audits.map((a) => [a.id, 'done', ['complete']]),
  );
}

beforeAll(async () => {
  // Every store answer takes 1.5 s: a scrape is in flight long enough to be killed mid-job.
  // A PostgreSQL server of its own, so that one case can restart it.
  // The web app is served: the render worker prints its pages.
  system = await FaultSystem.start({ storeDelayMs: 1_500, ownPostgres: true, web: true });
  if (system.noOwnPostgres)
    console.warn(
      `[faults] no PostgreSQL server of its own (${system.noOwnPostgres}): the system runs on the test server and the PostgreSQL restart case is skipped`,
    );
  adminCode = system.adminCode;
  token = (await system.newUser('main')).token;
}, 240_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

// A case that fails shows what the processes printed last (a crash, a refused connection):
// the test's own error only says what the client saw.
afterEach(({ task }) => {
  if (task.result?.state === 'fail' && system)
    console.log(`[faults] the system's last lines after "${task.name}":\n${system.tail(200)}`);
});

describe('fault suite', () => {
  it('kill -9 of the scraper mid-job: the audit completes once, the scraper is restarted', async () => {
    const { audits, recoveryMs } = await killWorkerMidAudit(system, token, 'scraper');
    expectCompletedOnce(audits);
    recovered('kill -9 of the scraper mid-scrape -> audit complete', recoveryMs);
  });

  it('kill -9 of the analyzer: the audit completes once, the analyzer is restarted', async () => {
    const { audits, recoveryMs } = await killWorkerMidAudit(system, token, 'analyzer');
    expectCompletedOnce(audits);
    recovered('kill -9 of the analyzer mid-audit -> audit complete', recoveryMs);
  });

  it('pg_terminate_backend of every connection: no process dies, audits complete once', async () => {
    const restartsBefore = system.allRestarts();
    const { audits, recoveryMs } = await terminateSessionsMidAudit(system, token);
    expectCompletedOnce(audits);
    recovered('pg_terminate_backend x3 during 3 audits -> all complete', recoveryMs);
    const ready = await fetch(`${system.apiUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(system.allRestarts()).toEqual(restartsBefore);
  });

  it('a PostgreSQL restart mid-audit (stop -m fast): 503 while down, no process dies, audits complete once', async (ctx) => {
    if (!system.postgres) ctx.skip();
    const restartsBefore = system.allRestarts();
    const outcome = await restartPostgresMidAudit(system, token);
    // While the server is down the api refuses with 503 (never 500) and says it is not ready.
    expect(outcome.whileDown).toEqual({ auditRead: 503, analyze: 503, readyz: 503 });
    expectCompletedOnce(outcome.audits);
    recovered('PostgreSQL restart -> the api reads audits again', outcome.apiRecoveryMs);
    recovered('PostgreSQL restart (stop -m fast) mid-audit -> audits complete', outcome.recoveryMs);
    const ready = await fetch(`${system.apiUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(system.allRestarts()).toEqual(restartsBefore);
  });

  it('a Redis restart mid-audit (empty): audits are queued again and complete once; the scheduler is back', async () => {
    const { audits, recoveryMs, followed } = await restartRedisMidAudit(system, token);
    expectCompletedOnce(audits);
    recovered('Redis restart (empty) mid-audit -> audits complete', recoveryMs);
    // The client that followed the first audit across the restart got one `complete`.
    expect(followed.filter((m) => m.event === 'complete')).toHaveLength(1);
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
    const seen: { id?: string; event: string }[] = [];
    let last: string | undefined;
    const read = (lastEventId?: string, max?: number) =>
      system.readProgress(token, id, { lastEventId, max, timeoutMs: RECOVERY_BOUND_MS });
    // Reconnect after every 2 messages until the terminal one.
    for (let i = 0; i < 40 && !seen.some((m) => m.event === 'complete'); i++) {
      const part = await read(last, 2);
      seen.push(...part);
      last = part.at(-1)?.id ?? last;
    }
    expect(await system.settle(token, id, RECOVERY_BOUND_MS)).toBe('done');
    const full = await read();
    expect(seen.map((m) => m.id)).toEqual(full.map((m) => m.id));
    expect(new Set(seen.map((m) => m.id)).size).toBe(seen.length);
    // Resuming past the end: the terminal event again, so the client stops reconnecting.
    const again = await read(full.at(-1)!.id);
    expect(again.map((m) => m.event)).toEqual(['complete']);
  });

  it('kill -9 of csv-merge mid-merge: the upload still gets its merged data, one dataset', async () => {
    const { answer, datasetIds, recoveryMs } = await killMergeMidUpload(system, exports());
    recovered('kill -9 of csv-merge during an upload -> merged data', recoveryMs);
    expect(answer.mergedData.totalRows).toBe(92);
    expect(datasetIds).toEqual([answer.mergedData.downloadId]);
  });

  it('a Redis restart (empty) while a merge is queued: the upload still gets its merged data, one dataset', async () => {
    const { answer, datasetIds, recoveryMs } = await restartRedisMidMerge(system, exports());
    recovered('Redis restart (empty) during an upload -> merged data', recoveryMs);
    expect(answer.mergedData.totalRows).toBe(92);
    expect(datasetIds).toEqual([answer.mergedData.downloadId]);
  });

  it('a PostgreSQL restart during a merge: the upload still gets its merged data, one dataset, no process dies', async (ctx) => {
    if (!system.postgres) ctx.skip();
    const restartsBefore = system.allRestarts();
    const { answer, datasetIds, recoveryMs } = await restartPostgresMidMerge(system, exports());
    recovered('PostgreSQL restart during an upload -> merged data', recoveryMs);
    expect(answer.mergedData.totalRows).toBe(92);
    expect(datasetIds).toEqual([answer.mergedData.downloadId]);
    expect(system.allRestarts()).toEqual(restartsBefore);
  });

  it('pg_terminate_backend during a merge: the upload still gets its merged data, one dataset', async () => {
    const { answer, datasetIds, recoveryMs } = await terminateSessionsMidMerge(system, exports());
    recovered('pg_terminate_backend x3 during an upload -> merged data', recoveryMs);
    expect(answer.mergedData.totalRows).toBe(92);
    expect(datasetIds).toEqual([answer.mergedData.downloadId]);
  });

  it('kill -9 of the api mid-audit: audits complete once; a client resuming with Last-Event-ID gets the rest once', async () => {
    const { audits, recoveryMs, before, after, full } = await killApiMidAudit(system, token);
    expectCompletedOnce(audits);
    recovered('kill -9 of the api mid-audit -> audits complete', recoveryMs);
    // What the client saw before the cut and after its reconnection is the whole stream, once.
    expect(before.length).toBeGreaterThan(0);
    expect([...before, ...after.map((m) => m.id)]).toEqual(full.map((m) => m.id));
    expect(after.filter((m) => m.event === 'complete')).toHaveLength(1);
    expect(after.at(-1)?.event).toBe('complete');
  });

  it('kill -9 of the api mid-upload: the client sends it again at once and gets its data; one dataset', async () => {
    const { answer, cut, datasetIds, recoveryMs } = await killApiMidUpload(system, exports());
    recovered('kill -9 of the api during an upload -> merged data of the retry', recoveryMs);
    expect(cut).toBeInstanceOf(Error);
    expect(answer.mergedData.totalRows).toBe(92);
    expect(datasetIds).toEqual([answer.mergedData.downloadId]);
  });

  it('kill -9 of the scraper mid watch read: the listing is read once, without an error', async () => {
    const { lastCheckedAt, lastError, snapshots, recoveryMs } =
      await killScraperMidWatchRead(system);
    recovered('kill -9 of the scraper during a watch read -> listing read', recoveryMs);
    expect(lastCheckedAt).not.toBeNull();
    expect(lastError).toBeNull();
    expect(snapshots).toBe(1);
  });

  it('kill -9 of the render worker mid-render: the PDF is produced once and the user gets it', async () => {
    const { firstStatus, pdf, documents, recoveryMs, leftBrowsers } = await killRenderMidReport(
      system,
      token,
    );
    recovered(`kill -9 of render mid-render -> PDF (first answer ${firstStatus})`, recoveryMs);
    expect([200, 503, 504]).toContain(firstStatus);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(documents).toBe(1);
    // No Chromium process of the killed worker outlives it.
    expect(leftBrowsers).toBe(0);
  });

  it('hostile uploads are refused fast with a 4xx naming the limit', async () => {
    const user = await system.newUser('hostile');
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
