/**
 * `pnpm start [--offline] [--no-build]`: the whole system on one machine. Checks PostgreSQL and
 * Redis, builds every package, service and the web app (`pnpm build`, cached by turbo; skipped
 * with `--no-build` when a build exists), creates and migrates the database, then runs the api
 * and the three workers from their compiled `dist/main.js` as separate processes with prefixed
 * logs, supervised: one that dies is restarted with
 * a backoff and a line saying so (supervisor.ts) while the others go on serving. `--offline`
 * also starts the store replay server and points the store origins at it, so an audit works
 * without internet. `WEB_DIST_DIR=` (empty) serves no web app and builds none. Ctrl-C stops
 * everything.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { nodeFlagsOf } from './node-flags';
import { Supervisor } from './supervisor';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const offline = args.has('--offline');
const build = !args.has('--no-build');

const env: Record<string, string> = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/aso',
  REDIS_URL: 'redis://127.0.0.1:6379',
  PORT: '3000',
  ...(process.env as Record<string, string>),
};
const port = env.PORT ?? '3000';
const replayPort = env.STORE_REPLAY_PORT ?? '4100';
if (offline) {
  env.ITUNES_ORIGIN = `http://127.0.0.1:${replayPort}`;
  env.APP_STORE_ORIGIN = `http://127.0.0.1:${replayPort}`;
}
env.WEB_DIST_DIR ??= join(root, 'apps/web/dist');

const PG_START = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';
const REDIS_START =
  'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log';

async function checkPostgres(): Promise<string | null> {
  const url = new URL(env.DATABASE_URL!);
  url.pathname = '/postgres';
  const client = new pg.Client({
    connectionString: url.toString(),
    connectionTimeoutMillis: 3_000,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(): Promise<string | null> {
  const r = new Redis(env.REDIS_URL!, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 3_000,
    retryStrategy: () => null,
  });
  r.on('error', () => undefined);
  try {
    await r.connect();
    await r.ping();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    r.disconnect();
  }
}

function run(cmd: string, argv: string[], extraEnv: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${argv.join(' ')} exited with ${code}`)),
    );
  });
}

const supervisor = new Supervisor(process.stdout);

/** Runs the compiled `script` with node, as the images do (no TypeScript loader). */
function startProcess(name: string, script: string, extraEnv: Record<string, string> = {}): void {
  supervisor.add({
    name,
    command: process.execPath,
    args: [...nodeFlagsOf(name), '--enable-source-maps', script],
    cwd: root,
    env: { ...env, ...extraEnv },
  });
}

async function stopAll(code: number): Promise<never> {
  await supervisor.stop();
  process.exit(code);
}

async function waitReady(url: string, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

const [pgError, redisError] = await Promise.all([checkPostgres(), checkRedis()]);
if (pgError || redisError) {
  if (pgError)
    console.error(
      `PostgreSQL does not answer at ${env.DATABASE_URL} (${pgError}).\n  Start it with: ${PG_START}`,
    );
  if (redisError)
    console.error(
      `Redis does not answer at ${env.REDIS_URL} (${redisError}).\n  Start it with: ${REDIS_START}`,
    );
  process.exit(1);
}

const SERVICES = ['api', 'scraper', 'analyzer', 'csv-merge', 'render'] as const;
const withWeb = env.WEB_DIST_DIR !== '';
const built =
  SERVICES.every((s) => existsSync(join(root, `services/${s}/dist/main.js`))) &&
  (!withWeb || existsSync(join(env.WEB_DIST_DIR, 'index.html')));
if (build || !built) {
  await run('pnpm', ['exec', 'turbo', 'run', 'build', ...(withWeb ? [] : ['--filter=!@aso/web'])]);
}
await run('pnpm', ['--silent', 'db:migrate']);

process.once('SIGINT', () => void stopAll(0));
process.once('SIGTERM', () => void stopAll(0));

if (offline)
  startProcess('replay', 'packages/appstore/dist/replay/replay.cli.js', {
    STORE_REPLAY_PORT: replayPort,
  });
for (const service of SERVICES) {
  // render (PDF reports) opens the web app's print pages on this api in the system Chromium.
  const extra: Record<string, string> =
    service === 'render' ? { RENDER_APP_URL: `http://127.0.0.1:${port}` } : {};
  startProcess(service, `services/${service}/dist/main.js`, extra);
}

if (await waitReady(`http://127.0.0.1:${port}/readyz`, 60_000)) {
  console.log(
    `\n  ASO audit is running: http://localhost:${port}\n${offline ? `  offline mode: App Store data is replayed from recordings on port ${replayPort}\n` : ''}`,
  );
} else {
  console.error('the api did not become ready within 60 s');
  await stopAll(1);
}
