import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEFAULT_FIXTURES_DIR } from '@aso/appstore/node';
import { generateSecretsKey, openSecret, sealSecret, secretsKeyFrom } from '@aso/asc';
import { insertAscConnection } from '@aso/db';
import { createTestUser } from '@aso/testkit';
import { it } from '@aso/testkit/vitest';
import {
  composeEnvironment,
  deploySteps,
  dockerStage,
  execForm,
  freePort,
  readCompose,
  readRepoFile,
  REPO_ROOT,
  stageEnv,
  WORKERS,
} from './ops.helpers';

// The production tree: the runtime trees that Dockerfile.api and
// Dockerfile.worker copy into their images are built here with the very `pnpm deploy`
// commands the Dockerfiles run (read from them), then every service is started from its tree
// with the command and environment of its container (docker-compose.yml + the image's ENV),
// pointed at this file's database and Redis prefix. Each must pass the image's own health
// check, then exit cleanly on SIGTERM. Building the four trees takes about a minute (pnpm
// copies from its store; no network), hence the long timeouts.

const execFileP = promisify(execFile);
const compose = readCompose();
const apiDockerfile = readRepoFile('Dockerfile.api');
const workerDockerfile = readRepoFile('Dockerfile.worker');
const apiStage = dockerStage(apiDockerfile, 'api');
const workerStage = dockerStage(workerDockerfile, 'worker-base');

let out = '';
const running = new Set<ChildProcess>();

/** pnpm, serialised with the other engineers' installs on this machine when flock exists. */
async function pnpm(args: string[]): Promise<void> {
  const flock = existsSync('/usr/bin/flock') ? ['/usr/bin/flock', '/tmp/pnpm.lock'] : [];
  const [cmd, ...rest] = [...flock, 'pnpm', ...args];
  await execFileP(cmd!, rest, {
    cwd: REPO_ROOT,
    maxBuffer: 32 * 1024 * 1024,
    env: { ...process.env, CI: 'true' },
  });
}

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'aso-runtime-'));
  // RUN pnpm exec turbo run build (the web app's build is stood in for below).
  await pnpm(['exec', 'turbo', 'run', 'build', '--filter=!@aso/web', '--output-logs=errors-only']);
  for (const step of [...deploySteps(apiDockerfile), ...deploySteps(workerDockerfile)]) {
    await pnpm(step.args.map((a) => (a === `/out/${step.dir}` ? join(out, step.dir) : a)));
  }
  // RUN ... && rm -rf /out/<dir>/node_modules/.pnpm/typescript@*
  const text = `${apiDockerfile}\n${workerDockerfile}`;
  for (const [, dir] of text.matchAll(
    /rm -rf \/out\/([\w-]+)\/node_modules\/\.pnpm\/typescript@\*/g,
  )) {
    const pnpmDir = join(out, dir!, 'node_modules/.pnpm');
    for (const entry of await readdir(pnpmDir))
      if (entry.startsWith('typescript@')) await rm(join(pnpmDir, entry), { recursive: true });
  }
  // COPY --chmod=0755 ops/worker-entrypoint.sh /app/worker-entrypoint.sh
  await copyFile(join(REPO_ROOT, 'ops/worker-entrypoint.sh'), join(out, 'worker-entrypoint.sh'));
  await execFileP('chmod', ['0755', join(out, 'worker-entrypoint.sh')]);
  // The image copies apps/web/dist to /app/web; a constructed page stands in for the build.
  await mkdir(join(out, 'web'), { recursive: true });
  await writeFile(
    join(out, 'web/index.html'),
    '<!doctype html><title>constructed for ops-runtime test</title>',
  );
}, 600_000);

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  if (out) await rm(out, { recursive: true, force: true });
});

/** A started service: its process, output so far, and a promise of its exit. */
interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(cmd: string[], cwd: string, env: Record<string, string>): Started {
  const child = spawn(cmd[0]!, cmd.slice(1), {
    cwd,
    // A container's environment: what the image and compose set, nothing of this process'.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, output: () => output, exited };
}

/** Runs the image's HEALTHCHECK command until it exits 0 (true) or the time is up (false). */
async function healthy(
  cmd: string[],
  cwd: string,
  env: Record<string, string>,
  s: Started,
  timeoutMs = 120_000,
) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (s.child.exitCode !== null) return false;
    const check = start(cmd, cwd, env);
    const { code } = await check.exited;
    if (code === 0) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/** SIGTERM, as `docker stop` sends; resolves with how the process ended. */
async function stop(s: Started) {
  s.child.kill('SIGTERM');
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 30_000);
  try {
    return await s.exited;
  } finally {
    clearTimeout(timer);
  }
}

describe('the runtime trees of the images', () => {
  it('hold compiled JavaScript and production dependencies only: no TypeScript loader or compiler', () => {
    for (const dir of ['api', ...WORKERS]) {
      expect(existsSync(join(out, dir, 'dist/main.js')), dir).toBe(true);
      expect(existsSync(join(out, dir, 'src')), dir).toBe(false);
      const store = readdirSync(join(out, dir, 'node_modules/.pnpm'));
      for (const tool of ['tsx', 'esbuild', 'typescript']) {
        expect(existsSync(join(out, dir, 'node_modules', tool)), `${dir}: ${tool}`).toBe(false);
        expect(
          store.filter((e) => e.startsWith(`${tool}@`)),
          `${dir}: ${tool}`,
        ).toEqual([]);
      }
    }
  });

  it('runs the migrations from the api tree with the migrate service command', async ({
    database,
  }) => {
    const migrate = compose.services.migrate!;
    const s = start(migrate.command!, join(out, 'api'), {
      ...stageEnv(apiStage),
      ...composeEnvironment(migrate),
      DATABASE_URL: database.url,
    });
    const { code } = await s.exited;
    expect(code, s.output()).toBe(0);
    expect(s.output()).toContain('database is up to date');
  }, 120_000);

  it('starts the api from its tree as its container does, healthy, serving the web app, and stops cleanly on SIGTERM', async ({
    database,
    redis,
  }) => {
    const port = String(await freePort());
    const env: Record<string, string> = {
      ...stageEnv(apiStage),
      ...composeEnvironment(compose.services.api!),
      // Where this machine has them (the container's names resolve only inside compose).
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: redis.prefix,
      HOST: '127.0.0.1',
      PORT: port,
      WEB_DIST_DIR: join(out, 'web'),
      ADMIN_ACCESS_CODE: 'Runtime-Admin-Code-4242',
    };
    expect(env.NODE_ENV).toBe('production');
    const cwd = join(out, 'api');
    const api = start(execForm(apiStage, 'CMD'), cwd, env);
    expect(await healthy(execForm(apiStage, 'HEALTHCHECK'), cwd, env, api), api.output()).toBe(
      true,
    );

    const base = `http://127.0.0.1:${port}`;
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('constructed for ops-runtime test');
    // The tree holds what the operations endpoints need at run time (swagger-ui and
    // bull-board assets, prom-client).
    expect((await fetch(`${base}/docs/json`)).status).toBe(200);
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('service="api"');
    const board = await fetch(`${base}/admin/queues/`, {
      headers: { 'x-access-code': env.ADMIN_ACCESS_CODE! },
    });
    expect(board.status).toBe(200);
    expect(await board.text()).toMatch(/<html/i);

    expect(await stop(api), api.output()).toEqual({ code: 0, signal: null });
  }, 180_000);

  it.for(WORKERS)(
    'starts the %s worker from the worker image tree through its entrypoint, healthy, and stops cleanly on SIGTERM',
    { timeout: 180_000 },
    async (name, { database, redis }) => {
      const healthPort = String(await freePort());
      const env: Record<string, string> = {
        ...stageEnv(workerStage),
        ...composeEnvironment(compose.services[name]!),
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        HEALTH_PORT: healthPort,
      };
      expect(env).toMatchObject({ NODE_ENV: 'production', WORKER: name });
      const worker = start([join(out, 'worker-entrypoint.sh')], out, env);
      const healthcheck = execForm(workerStage, 'HEALTHCHECK').map((a) =>
        a === '/app/worker-entrypoint.sh' ? join(out, 'worker-entrypoint.sh') : a,
      );
      expect(await healthy(healthcheck, out, env, worker), worker.output()).toBe(true);
      const metrics = await fetch(`http://127.0.0.1:${healthPort}/metrics`);
      expect(await metrics.text()).toContain(`service="${name}"`);
      expect(await stop(worker), worker.output()).toEqual({ code: 0, signal: null });
    },
  );

  it('rotates SECRETS_KEY with the re-encrypt command of the worker image (entrypoint `reencrypt`)', async ({
    database,
  }) => {
    const [previous, next] = [generateSecretsKey(), generateSecretsKey()];
    const user = await createTestUser(database.db);
    const id = '3f1c2b4a-5d6e-4f70-8192-a3b4c5d6e7f8';
    // Any text stands in for a private key: the command seals and opens, never parses it.
    const secret = 'constructed private key text for the re-encrypt test';
    await insertAscConnection(database.db, {
      id,
      userId: user.userId,
      name: 'Constructed team',
      issuerId: '69a6de70-03db-47e3-e053-5b8c7c11a4d1',
      keyId: 'REENCRYPT1',
      privateKeySealed: sealSecret(secret, secretsKeyFrom(previous), id),
      apps: [],
    });
    const run = start([join(out, 'worker-entrypoint.sh'), 'reencrypt'], out, {
      ...stageEnv(workerStage),
      DATABASE_URL: database.url,
      SECRETS_KEY_PREVIOUS: previous,
      SECRETS_KEY: next,
    });
    const { code } = await run.exited;
    expect(code, run.output()).toBe(0);
    expect(run.output()).toContain('re-encrypted 1 App Store Connect key(s)');
    const row = await database.db
      .selectFrom('asc_connections')
      .select('private_key_sealed')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(openSecret(row.private_key_sealed, secretsKeyFrom(next), id)).toBe(secret);
  }, 60_000);

  it('starts the replay server of the replay profile from the worker image tree', async () => {
    const port = String(await freePort());
    const env: Record<string, string> = {
      ...stageEnv(workerStage),
      ...composeEnvironment(compose.services.replay!),
      // The compose volume mounts the fixtures at FIXTURES_DIR; here they are read in place.
      FIXTURES_DIR: process.env.FIXTURES_DIR || DEFAULT_FIXTURES_DIR,
      STORE_REPLAY_HOST: '127.0.0.1',
      STORE_REPLAY_PORT: port,
    };
    const replay = start([join(out, 'worker-entrypoint.sh')], out, env);
    const healthcheck = [join(out, 'worker-entrypoint.sh'), 'healthcheck'];
    expect(await healthy(healthcheck, out, env, replay), replay.output()).toBe(true);
    const lookup = await fetch(
      `http://127.0.0.1:${port}/lookup?id=324684580&country=us&entity=software`,
    );
    expect(lookup.status).toBe(200);
    expect(await lookup.text()).toContain('Spotify');
    expect(await stop(replay), replay.output()).toEqual({ code: 0, signal: null });
  }, 120_000);
});
