/**
 * `pnpm start [--offline] [--no-build]`: the whole system on one machine. Checks PostgreSQL and
 * Redis, builds every package, service and the web app (`pnpm build`, cached by turbo; skipped
 * with `--no-build` when a build exists), creates and migrates the database, then runs the api
 * and the three workers from their compiled `dist/main.js` as separate processes with prefixed
 * logs, supervised: one that dies is restarted with
 * a backoff and a line saying so (supervisor.ts) while the others go on serving. `--offline`
 * also starts the store replay server and points the store origins at it, so an audit works
 * without internet, and the App Store Connect stand-in with its demo key (`ASC_DEMO`), pointing
 * `ASC_API_ORIGIN` at it. `SECRETS_KEY` (which seals App Store Connect keys) comes from the
 * environment or the git-ignored `.env`; when neither has one, a random key is written to
 * `.env` and a line says so. `WEB_DIST_DIR=` (empty) serves no web app and builds none. Ctrl-C
 * stops everything.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { Cluster, Redis } from 'ioredis';
// From the sources (`pnpm start` sets the `@aso/source` condition): this check runs before
// `pnpm build` makes the packages' dist/.
import { ZRedisClusterNodes, nodeFlagsOf } from '@aso/contracts';
import pg from 'pg';
import { Supervisor } from './supervisor';

const startedAt = performance.now();
/** Seconds since this script started, one decimal. */
const sinceStart = () => ((performance.now() - startedAt) / 1000).toFixed(1);
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
const ascStandInPort = env.ASC_STAND_IN_PORT ?? String(Number(replayPort) + 100);
if (offline) {
  env.ITUNES_ORIGIN = `http://127.0.0.1:${replayPort}`;
  env.APP_STORE_ORIGIN = `http://127.0.0.1:${replayPort}`;
  env.SEARCH_HINTS_ORIGIN = `http://127.0.0.1:${replayPort}`;
  env.ASC_API_ORIGIN = `http://127.0.0.1:${ascStandInPort}`;
  env.ASC_DEMO = 'true';
}

/**
 * `SECRETS_KEY` from the environment, else from `.env`, else a new random one (base64 of 32
 * bytes) appended to `.env` so the sealed App Store Connect keys open after a restart.
 */
function ensureSecretsKey(): void {
  if (env.SECRETS_KEY) return;
  const file = join(root, '.env');
  const saved = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')).SECRETS_KEY : undefined;
  if (saved) {
    env.SECRETS_KEY = saved;
    return;
  }
  env.SECRETS_KEY = randomBytes(32).toString('base64');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  appendFileSync(
    file,
    `${text === '' || text.endsWith('\n') ? '' : '\n'}# Seals App Store Connect private keys (AES-256-GCM); keep it, see docs/OPERATIONS.md.\nSECRETS_KEY=${env.SECRETS_KEY}\n`,
    { mode: 0o600 },
  );
  console.log(
    'SECRETS_KEY was not set: a random one was written to .env (keep that file; rotate with pnpm secrets:reencrypt)',
  );
}
ensureSecretsKey();
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

/** The cluster's seed nodes when `REDIS_CLUSTER_NODES` is set (it wins over `REDIS_URL`). */
const clusterNodes = ZRedisClusterNodes.parse(env.REDIS_CLUSTER_NODES);
const redisWhere = clusterNodes ? `the cluster ${env.REDIS_CLUSTER_NODES}` : env.REDIS_URL;

/** Answers why a Redis Cluster is not usable (no node answers, or `cluster_state` is not ok). */
async function checkRedisCluster(nodes: NonNullable<typeof clusterNodes>): Promise<string | null> {
  const c = new Cluster(nodes, {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    redisOptions: { connectTimeout: 3_000, maxRetriesPerRequest: 0 },
  });
  c.on('error', () => undefined);
  try {
    await c.connect();
    const info = await c.cluster('INFO');
    return /cluster_state:ok/.test(info) ? null : 'cluster_state is not ok';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    c.disconnect();
  }
}

async function checkRedis(): Promise<string | null> {
  if (clusterNodes) return checkRedisCluster(clusterNodes);
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
      `Redis does not answer at ${redisWhere} (${redisError}).\n  Start it with: ${REDIS_START}`,
    );
  process.exit(1);
}

const SERVICES = ['api', 'scraper', 'analyzer', 'csv-merge', 'render', 'asc-import'] as const;
const withWeb = env.WEB_DIST_DIR !== '';
const built =
  SERVICES.every((s) => existsSync(join(root, `services/${s}/dist/main.js`))) &&
  (!withWeb || existsSync(join(env.WEB_DIST_DIR, 'index.html')));
const buildStartedAt = performance.now();
if (build || !built) {
  await run('pnpm', ['exec', 'turbo', 'run', 'build', ...(withWeb ? [] : ['--filter=!@aso/web'])]);
}
const migrateStartedAt = performance.now();
// The compiled migration runner itself, not through pnpm (whose start costs a second or two).
await run(process.execPath, ['packages/db/dist/migrate.cli.js']);
const processesStartedAt = performance.now();
/** Seconds between two instants of `performance.now()`, one decimal. */
const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);

process.once('SIGINT', () => void stopAll(0));
process.once('SIGTERM', () => void stopAll(0));

if (offline)
  startProcess('replay', 'packages/appstore/dist/replay/replay.cli.js', {
    STORE_REPLAY_PORT: replayPort,
  });
if (offline)
  startProcess('asc-stand-in', 'packages/asc/dist/stand-in/stand-in.cli.js', {
    ASC_STAND_IN_PORT: ascStandInPort,
  });
for (const service of SERVICES) {
  // render (PDF reports) opens the web app's print pages on this api in the system Chromium.
  const extra: Record<string, string> =
    service === 'render' ? { RENDER_APP_URL: `http://127.0.0.1:${port}` } : {};
  startProcess(service, `services/${service}/dist/main.js`, extra);
}

if (await waitReady(`http://127.0.0.1:${port}/readyz`, 60_000)) {
  const readyAt = performance.now();
  // `pnpm bench start` reads the "ready in" line (parseReadyLine of bench's start.bench.ts).
  console.log(
    `\n  ASO audit is running: http://localhost:${port}\n  ready in ${sinceStart()} s (build ${seconds(buildStartedAt, migrateStartedAt)} s, database ${seconds(migrateStartedAt, processesStartedAt)} s, processes ${seconds(processesStartedAt, readyAt)} s)\n${offline ? `  offline mode: App Store data is replayed from recordings on port ${replayPort}; App Store Connect is the stand-in on port ${ascStandInPort} (Settings > App Store Connect > Connect the demo key)\n` : ''}`,
  );
} else {
  console.error('the api did not become ready within 60 s');
  await stopAll(1);
}
