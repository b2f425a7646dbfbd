/**
 * Global setup of the `browser` vitest project: the whole system in this process, isolated.
 *
 * 1. Builds the web app (production mode) into a folder of its own keyed by the sources'
 *    content (`.tmp/e2e-web/<hash>`, see `support/web-build.ts`), unless that build exists.
 * 2. Starts the store replay server on a free port (recorded answers from `FIXTURES_DIR`, and
 *    the project's constructed recordings of an invented app whose listing changes by day).
 * 3. Clones a fresh database from the migrated template and picks a fresh Redis prefix.
 * 4. Starts the api (serving the build) on a free loopback port, with a generated
 *    `ADMIN_ACCESS_CODE`, and the scraper, analyzer and csv-merge workers in-process, their
 *    store origins pointed at the replay server, and the render worker, pointed at the api.
 * 5. Provides `baseUrl`, `adminCode` and `replayUrl` to the tests; tears everything down after.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { DEFAULT_FIXTURES_DIR, startReplayServer } from '@aso/appstore/node';
import { createTestDatabase, deletePrefix, newPrefix, redisUrl } from '@aso/testkit';
import { parseApiEnv, buildServer } from '@aso/api';
import { parseWorkerEnv as parseScraperEnv, startScraper } from '@aso/scraper';
import { parseWorkerEnv as parseAnalyzerEnv, startAnalyzer } from '@aso/analyzer';
import { parseWorkerEnv as parseCsvMergeEnv, startCsvMerge } from '@aso/csv-merge';
import { generateSecretsKey } from '@aso/asc';
import { startDemoStandIn } from '@aso/asc/stand-in';
import { parseAscImportEnv, startAscImport } from '@aso/asc-import';
import { parseRenderEnv, startRender } from '@aso/render';
import { CONSTRUCTED_RECORDINGS_DIR } from '@aso/appstore/recordings';
import { ensureWebBuild } from './support/web-build';
import './support/provided';

const LOG_LEVEL = process.env.E2E_LOG_LEVEL ?? 'warn';
/** The consulting site the tests' api is configured with (a reserved example domain). */
const CONSULTING_URL_OF_TESTS = 'https://aso.example/human-audit';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cleanups: [string, () => Promise<unknown>][] = [];
  const teardown = async () => {
    const started = Date.now();
    for (const [name, cleanup] of cleanups.reverse()) {
      const t0 = Date.now();
      await cleanup().catch((err: unknown) =>
        console.error(`[e2e] teardown of ${name} failed`, err),
      );
      if (Date.now() - t0 > 2_000)
        console.warn(`[e2e] teardown of ${name} took ${Date.now() - t0} ms`);
    }
    console.log(`[e2e] teardown done in ${Date.now() - started} ms`);
  };

  try {
    const webDistDir = await ensureWebBuild();

    const fixturesDir = join(process.env.FIXTURES_DIR ?? DEFAULT_FIXTURES_DIR, 'appstore');
    const replay = await startReplayServer({
      port: 0,
      fixturesDir: [fixturesDir, CONSTRUCTED_RECORDINGS_DIR],
      // TikTok's answers take 400 ms, as a store's do, not the replay's few: only the audit-run
      // test reads it (a competitor), and its steps then advance over a second or more, so the
      // progress view is seen moving from step to step rather than in one burst.
      faults: [{ pathIncludes: '835599320', delayMs: 400 }],
    });
    cleanups.push(['replay server', () => replay.close()]);

    const database = await createTestDatabase();
    cleanups.push(['database', () => database.drop()]);
    const prefix = newPrefix();
    cleanups.push(['redis prefix', () => deletePrefix(prefix)]);

    const adminCode = `e2e-admin-${randomBytes(8).toString('hex')}`;
    const shared = {
      NODE_ENV: 'test',
      LOG_LEVEL,
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl(),
      QUEUE_PREFIX: prefix,
    };

    // Keyword search reads: the replay server has no rate limit to respect, so the limiter is
    // loosened (one read every ~100 ms instead of every 3 s) and a tracked term's first read
    // (queued when it is tracked) is in within a second or two; the api says when reads can be
    // done from the same figure.
    const searchRate = { ITUNES_SEARCH_RATE_PER_MIN: '600' };
    const workerEnv = {
      ...shared,
      HEALTH_PORT: '0',
      ITUNES_ORIGIN: replay.url,
      APP_STORE_ORIGIN: replay.url,
      ...searchRate,
    };
    const scraper = await startScraper(parseScraperEnv(workerEnv), { handleSignals: false });
    cleanups.push(['scraper', () => scraper.close()]);
    const analyzer = await startAnalyzer(
      parseAnalyzerEnv({ ...workerEnv, AI_PROVIDER: 'heuristic' }),
      {
        handleSignals: false,
      },
    );
    cleanups.push(['analyzer', () => analyzer.close()]);
    const csvMerge = await startCsvMerge(parseCsvMergeEnv(workerEnv), { handleSignals: false });
    cleanups.push(['csv-merge', () => csvMerge.close()]);
    // App Store Connect: the stand-in with the offline demo's key and apps, and the importer.
    const ascStandIn = await startDemoStandIn(0, '127.0.0.1', 35);
    cleanups.push(['App Store Connect stand-in', () => ascStandIn.close()]);
    const ascEnv = { SECRETS_KEY: generateSecretsKey(), ASC_API_ORIGIN: ascStandIn.url };
    const ascImport = await startAscImport(
      parseAscImportEnv({ ...workerEnv, ...ascEnv, ASC_RETRY_BASE_DELAY_MS: '100' }),
      { handleSignals: false },
    );
    cleanups.push(['asc-import', () => ascImport.close()]);

    const server = await buildServer(
      parseApiEnv({
        ...shared,
        HOST: '127.0.0.1',
        PORT: '0',
        ADMIN_ACCESS_CODE: adminCode,
        WEB_DIST_DIR: webDistDir,
        // The consulting link and promo show only when configured (constructed address).
        CONSULTING_URL: CONSULTING_URL_OF_TESTS,
        // Every test signs up or in; the defaults would throttle a full run.
        AUTH_RATE_LIMIT_PER_MIN: '1000',
        ANALYZE_RATE_LIMIT_PER_MIN: '1000',
        UPLOAD_RATE_LIMIT_PER_MIN: '1000',
        ...searchRate,
        ...ascEnv,
        ASC_DEMO: 'true',
      }),
    );
    cleanups.push(['api', () => server.close()]);
    await server.listen({ host: '127.0.0.1', port: 0 });
    const address = server.server.address();
    if (!address || typeof address === 'string')
      throw new Error('api did not report a TCP address');
    const baseUrl = `http://127.0.0.1:${address.port}`;
    // The render worker opens the web app's print pages on this api.
    const render = await startRender(
      parseRenderEnv({ ...workerEnv, RENDER_APP_URL: baseUrl, CONCURRENCY: '2' }),
      { handleSignals: false },
    );
    cleanups.push(['render', () => render.close()]);
    await waitForAdminCode(baseUrl, adminCode);

    project.provide('baseUrl', baseUrl);
    project.provide('adminCode', adminCode);
    project.provide('consultingUrl', CONSULTING_URL_OF_TESTS);
    project.provide('replayUrl', replay.url);
    project.provide('databaseUrl', database.url);
    console.log(
      `[e2e] api ${baseUrl}, replay ${replay.url}, database ${database.name}, prefix ${prefix}`,
    );
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}

/** The admin code is created when the server is ready; wait until the api accepts it (10 s). */
async function waitForAdminCode(baseUrl: string, adminCode: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/api/check-access`, {
        headers: { 'x-access-code': adminCode },
        signal: AbortSignal.timeout(2_000),
      });
      const body = (await res.json()) as { isAdmin?: boolean };
      if (body.isAdmin) return;
      last = `${res.status} ${JSON.stringify(body)}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`admin code not accepted by the api within 10 s (last answer: ${last})`);
}
