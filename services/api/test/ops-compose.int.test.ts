import { describe, expect, it } from 'vitest';
import { nodeFlagsOf } from '@aso/contracts';
import {
  composeEnvironment,
  deploySteps,
  dockerStage,
  ENTRYPOINT_KEYS,
  execForm,
  interpolations,
  readCompose,
  readRepoFile,
  SERVICE_SCHEMAS,
  stageEnv,
  WORKERS,
  type TComposeService,
} from './ops.helpers';

// The machines of this project have no Docker engine, so this proves what can
// be proven without one: docker-compose.yml, the Dockerfiles, the worker entrypoint and
// .env.example agree with each other and with the environment schemas of the services.

const compose = readCompose();
const composeText = readRepoFile('docker-compose.yml');
const apiDockerfile = readRepoFile('Dockerfile.api');
const workerDockerfile = readRepoFile('Dockerfile.worker');
const entrypoint = readRepoFile('ops/worker-entrypoint.sh');
const service = (name: string): TComposeService => {
  const s = compose.services[name];
  if (!s) throw new Error(`docker-compose.yml has no service ${name}`);
  return s;
};
/** The default a schema gives `key` (parsing "unset"). */
const schemaDefault = (
  schema: (typeof SERVICE_SCHEMAS)[keyof typeof SERVICE_SCHEMAS],
  key: string,
): unknown =>
  (schema.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>)[
    key
  ]!.safeParse(undefined).data;
const fieldParse = (
  schema: (typeof SERVICE_SCHEMAS)[keyof typeof SERVICE_SCHEMAS],
  key: string,
  value: string,
) =>
  (schema.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>)[
    key
  ]!.safeParse(value);

describe('docker-compose.yml', () => {
  it('defines the data stores, the one-shot migration, the api, the four workers and the replay profile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        'analyzer',
        'api',
        'asc-import',
        'csv-merge',
        'migrate',
        'postgres',
        'redis',
        'render',
        'replay',
        'scraper',
      ].sort(),
    );
    expect(service('replay').profiles).toEqual(['replay']);
    for (const name of ['postgres', 'redis', 'migrate', 'api', ...WORKERS]) {
      expect(service(name).profiles, name).toBeUndefined();
    }
  });

  it('runs PostgreSQL 16 on a named volume with a pg_isready health check', () => {
    const pg = service('postgres');
    expect(pg.image).toMatch(/^postgres:16(\.|-|$)/);
    expect(pg.volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(compose.volumes).toHaveProperty('postgres-data');
    expect(pg.healthcheck?.test.join(' ')).toMatch(/pg_isready -U postgres -d aso/);
    expect(pg.environment?.POSTGRES_DB).toBe('aso');
    expect(pg.ports).toBeUndefined();
  });

  it('runs Redis 7 with AOF every second and noeviction, on a volume, with a health check', () => {
    const redis = service('redis');
    expect(redis.image).toMatch(/^redis:7(\.|-|$)/);
    const cmd = redis.command!;
    expect(cmd[0]).toBe('redis-server');
    const flag = (name: string) => cmd[cmd.indexOf(name) + 1];
    expect(cmd).toContain('--appendonly');
    expect(flag('--appendonly')).toBe('yes');
    expect(flag('--appendfsync')).toBe('everysec');
    expect(flag('--maxmemory-policy')).toBe('noeviction');
    expect(redis.volumes).toContain('redis-data:/data');
    expect(compose.volumes).toHaveProperty('redis-data');
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(redis.ports).toBeUndefined();
  });

  it('migrates once with the api image before the api and the workers start', () => {
    const migrate = service('migrate');
    expect(migrate.build?.dockerfile).toBe('Dockerfile.api');
    expect(migrate.image).toBe(service('api').image);
    expect(migrate.restart).toBe('no');
    // The api image's tree is services/api's deploy: @aso/db is its dependency.
    expect(migrate.command).toEqual(['node', 'node_modules/@aso/db/dist/migrate.cli.js']);
    expect(readRepoFile('packages/db/src/migrate.cli.ts')).toContain('migrateToLatest');
    expect(Object.keys(migrate.environment ?? {})).toEqual(['DATABASE_URL']);
    expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const name of ['api', ...WORKERS]) {
      expect(service(name).depends_on, name).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
    }
  });

  it('publishes the api port, builds it from Dockerfile.api and checks /readyz like the image', () => {
    const api = service('api');
    expect(api.build).toMatchObject({ context: '.', dockerfile: 'Dockerfile.api' });
    const env = composeEnvironment(api);
    expect(api.ports).toEqual([`\${API_PORT:-3000}:${env.PORT}`]);
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.NODE_ENV).toBe('production');
    // The web app is where the image put it.
    const runtime = dockerStage(apiDockerfile, 'api');
    expect(env.WEB_DIST_DIR).toBe(stageEnv(runtime).WEB_DIST_DIR);
    expect(api.healthcheck?.test).toEqual(['CMD', ...execForm(runtime, 'HEALTHCHECK')]);
    expect(api.healthcheck?.test.join(' ')).toContain('/readyz');
    expect(api.command).toBeUndefined();
  });

  it('makes every worker scalable: no container name, no published port, concurrency per replica from the environment', () => {
    for (const name of WORKERS) {
      const w = service(name);
      expect(w.container_name, name).toBeUndefined();
      expect(w.ports, name).toBeUndefined();
      expect(w.build).toMatchObject({
        context: '.',
        dockerfile: 'Dockerfile.worker',
        target: name === 'scraper' || name === 'render' ? `worker-${name}` : 'worker',
      });
      expect(w.environment?.WORKER).toBe(name);
      const concurrency = String(w.environment?.CONCURRENCY);
      const [ref] = interpolations(concurrency);
      expect(ref?.name).toBe(`${name.toUpperCase().replace('-', '_')}_CONCURRENCY`);
      expect(Number(ref?.fallback)).toBe(schemaDefault(SERVICE_SCHEMAS[name], 'CONCURRENCY'));
      expect(w.healthcheck?.test).toEqual([
        'CMD',
        ...execForm(dockerStage(workerDockerfile, 'worker-base'), 'HEALTHCHECK'),
      ]);
      expect(w.init).toBe(true);
      expect(w.command).toBeUndefined();
    }
  });

  it('points the scraper at the store origins named like its settings, so the replay profile can override them', () => {
    const env = service('scraper').environment!;
    for (const key of ['ITUNES_ORIGIN', 'APP_STORE_ORIGIN']) {
      const [ref] = interpolations(String(env[key]));
      expect(ref?.name).toBe(key);
      expect(ref?.fallback).toBe(schemaDefault(SERVICE_SCHEMAS.scraper, key));
    }
  });

  it('runs the replay server from the worker image on all interfaces, reading the mounted fixtures', () => {
    const replay = service('replay');
    expect(replay.build?.target).toBe('worker');
    const env = composeEnvironment(replay);
    expect(env.WORKER).toBe('replay');
    expect(env.STORE_REPLAY_HOST).toBe('0.0.0.0');
    expect(env.STORE_REPLAY_PORT).toBe('4100');
    expect(replay.volumes).toEqual([`\${FIXTURES_DIR:-../shared/fixtures}:${env.FIXTURES_DIR}:ro`]);
    expect(composeText).toContain(
      'ITUNES_ORIGIN=http://replay:4100 APP_STORE_ORIGIN=http://replay:4100 docker compose --profile replay up',
    );
  });

  it("gives each service only variables its environment schema knows, with values it accepts and the schema's defaults", () => {
    for (const name of ['api', ...WORKERS, 'replay'] as const) {
      const s = service(name);
      const schema = SERVICE_SCHEMAS[name];
      const known = new Set([
        ...Object.keys(schema.shape),
        ...(name === 'api' ? [] : ENTRYPOINT_KEYS),
      ]);
      for (const key of Object.keys(s.environment ?? {})) {
        expect(known.has(key), `${name}: ${key} is not a variable of its env schema`).toBe(true);
      }
      // A `${KEY:-default}` of a variable named like the setting carries the schema's default.
      for (const [key, value] of Object.entries(s.environment ?? {})) {
        for (const ref of interpolations(String(value ?? ''))) {
          if (ref.name !== key) continue;
          expect(
            fieldParse(schema, key, ref.fallback ?? '').data,
            `${name}: ${key} default`,
          ).toEqual(schemaDefault(schema, key));
        }
      }
      // Valueless entries are passed only when set: the schema must not need them.
      for (const [key, value] of Object.entries(s.environment ?? {})) {
        if (value === null)
          expect(schema.shape[key as keyof typeof schema.shape], key).toBeDefined();
      }
      const parsed = schema.safeParse(composeEnvironment(s));
      expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it('reads the optional .env into every node service and sets NODE_ENV=production', () => {
    for (const name of ['api', ...WORKERS, 'replay']) {
      expect(service(name).env_file, name).toEqual([{ path: '.env', required: false }]);
    }
    for (const name of ['api', ...WORKERS]) {
      expect(service(name).environment?.NODE_ENV, name).toBe('production');
    }
  });
});

describe('Dockerfiles', () => {
  const pnpmVersion = (JSON.parse(readRepoFile('package.json')) as { packageManager: string })
    .packageManager;

  it('build on Node 24 LTS slim with the pnpm of packageManager and the frozen lockfile', () => {
    expect(pnpmVersion).toMatch(/^pnpm@\d+\.\d+\.\d+$/);
    for (const file of [apiDockerfile, workerDockerfile]) {
      expect(file).toMatch(/^ARG NODE_IMAGE=node:24-slim$/m);
      const froms = [...file.matchAll(/^FROM (\S+) AS (\S+)$/gm)].map((m) => m[1]);
      expect(froms.length).toBeGreaterThanOrEqual(2);
      for (const from of froms)
        expect(['${NODE_IMAGE}', 'worker-base', 'worker-chromium']).toContain(from);
      expect(file).toContain(
        `npm install -g "pnpm@$(node -p "require('./package.json').packageManager.split('@')[1]")"`,
      );
      expect(file).toMatch(/pnpm install --offline --frozen-lockfile/);
    }
  });

  it('deploy the production trees of the services with pnpm deploy --prod', () => {
    const api = deploySteps(apiDockerfile);
    expect(api.map((d) => [d.pkg, d.dir])).toEqual([['@aso/api', 'api']]);
    const workers = deploySteps(workerDockerfile);
    expect(workers.map((d) => [d.pkg, d.dir])).toEqual(WORKERS.map((w) => [`@aso/${w}`, w]));
    for (const d of [...api, ...workers]) {
      expect(d.args).toContain('--prod');
      expect(d.args).toContain('--config.inject-workspace-packages=true');
    }
  });

  it('run the api as a non-root user in production, serving the built web app, with a health check', () => {
    const runtime = dockerStage(apiDockerfile, 'api');
    expect(runtime).toMatch(/^USER node$/m);
    expect(stageEnv(runtime)).toMatchObject({
      NODE_ENV: 'production',
      WEB_DIST_DIR: '/app/web',
      PORT: '3000',
    });
    expect(runtime).toContain('COPY --from=build /repo/apps/web/dist /app/web');
    expect(apiDockerfile).toMatch(/^RUN pnpm build$/m);
    // Compiled JavaScript only: no TypeScript loader in the start command.
    // With the node flags `pnpm start` and the benchmarks give the api.
    expect(execForm(runtime, 'CMD')).toEqual([
      'node',
      ...nodeFlagsOf('api'),
      '--enable-source-maps',
      'dist/main.js',
    ]);
    expect(execForm(runtime, 'HEALTHCHECK').join(' ')).toContain('/readyz');
    // The api image is the last stage: a plain `docker build -f Dockerfile.api` builds it.
    expect(
      apiDockerfile
        .trimEnd()
        .split(/^(?=FROM\s)/m)
        .at(-1),
    ).toMatch(/^FROM \S+ AS api/);
  });

  it('run the workers as a non-root user in production through the entrypoint; the scraper and render variants add Chromium', () => {
    const base = dockerStage(workerDockerfile, 'worker-base');
    expect(base).toMatch(/^USER node$/m);
    expect(stageEnv(base).NODE_ENV).toBe('production');
    expect(base).toContain('COPY --chmod=0755 ops/worker-entrypoint.sh /app/worker-entrypoint.sh');
    expect(execForm(base, 'ENTRYPOINT')).toEqual(['/app/worker-entrypoint.sh']);
    expect(execForm(base, 'HEALTHCHECK')).toEqual(['/app/worker-entrypoint.sh', 'healthcheck']);
    const chromium = dockerStage(workerDockerfile, 'worker-chromium');
    expect(chromium).toMatch(/apt-get install -y --no-install-recommends chromium\b/);
    expect(
      chromium
        .trimEnd()
        .split('\n')
        .filter((l) => l.startsWith('USER '))
        .at(-1),
    ).toBe('USER node');
    for (const name of ['scraper', 'render']) {
      const stage = dockerStage(workerDockerfile, `worker-${name}`);
      expect(stage).toMatch(new RegExp(`^FROM worker-chromium AS worker-${name}$`, 'm'));
      expect(stageEnv(stage).WORKER).toBe(name);
    }
    // The plain worker (no Chromium) is the default target.
    expect(
      workerDockerfile
        .trimEnd()
        .split(/^(?=FROM\s)/m)
        .at(-1),
    ).toMatch(/^FROM worker-base AS worker\s*$/m);
  });

  it('keep host installs, builds, tests and secrets out of the build context', () => {
    const ignore = readRepoFile('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', '.git', '.env', '**/test', '**/*.test.ts']) {
      expect(ignore).toContain(entry);
    }
    expect(ignore).toContain('!.env.example');
  });
});

describe('ops/worker-entrypoint.sh', () => {
  it("knows each worker's health port default from its env schema, and the replay server's port", () => {
    for (const name of WORKERS) {
      const m = new RegExp(`^\\s*${name}\\) port="\\$\\{HEALTH_PORT:-(\\d+)\\}"`, 'm').exec(
        entrypoint,
      );
      expect(Number(m?.[1]), name).toBe(schemaDefault(SERVICE_SCHEMAS[name], 'HEALTH_PORT'));
      expect(entrypoint).toMatch(new RegExp(`^\\s*${name}\\) port=.*path=/healthz`, 'm'));
    }
    const replay = /^\s*replay\) port="\$\{STORE_REPLAY_PORT:-(\d+)\}"/m.exec(entrypoint);
    expect(Number(replay?.[1])).toBe(schemaDefault(SERVICE_SCHEMAS.replay, 'STORE_REPLAY_PORT'));
    expect(entrypoint).toContain('exec node $flags --enable-source-maps dist/main.js');
    // Each worker starts with the node flags `pnpm start` and the benchmarks give it.
    for (const name of WORKERS) {
      const m = new RegExp(`^\\s*${name}\\) flags="([^"]*)"`, 'm').exec(entrypoint);
      expect(m?.[1]?.split(' ') ?? [], name).toEqual([...nodeFlagsOf(name)]);
    }
    expect(entrypoint).toContain(
      'exec node --enable-source-maps node_modules/@aso/appstore/dist/replay/replay.cli.js',
    );
    expect(entrypoint).not.toContain('tsx');
  });
});

describe('.env.example', () => {
  const lines = readRepoFile('.env.example').split('\n');
  const entries = lines
    .map((l) => /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ key: m[2]!, value: m[3]!, commented: Boolean(m[1]) }));
  const keys = entries.map((e) => e.key);
  const schemaKeys = new Set(Object.values(SERVICE_SCHEMAS).flatMap((s) => Object.keys(s.shape)));
  const composeVars = new Map<string, string | undefined>();
  for (const ref of interpolations(composeText)) composeVars.set(ref.name, ref.fallback);
  // Build arguments passed through when set (valueless `args` entries).
  for (const s of Object.values(compose.services)) {
    for (const [k, v] of Object.entries(s.build?.args ?? {}))
      if (v === null) composeVars.set(k, undefined);
  }

  it('lists each variable once', () => {
    expect(keys.length).toBe(new Set(keys).size);
  });

  it("lists every variable of every service's env schema and every variable docker-compose.yml reads, and nothing else", () => {
    const expected = new Set([...schemaKeys, ...composeVars.keys()]);
    expect([...new Set(keys)].sort()).toEqual([...expected].sort());
  });

  it('gives the default of each active line: the schema default, or the compose default', () => {
    for (const e of entries.filter((x) => !x.commented)) {
      expect(e.value, `${e.key} must not be empty (an empty value is not "unset")`).not.toBe('');
      const owners = Object.entries(SERVICE_SCHEMAS).filter(([, s]) => e.key in s.shape);
      for (const [name, schema] of owners) {
        const parsed = fieldParse(schema, e.key, e.value);
        expect(parsed.success, `${e.key} (${name})`).toBe(true);
        expect(parsed.data, `${e.key} default of ${name}`).toEqual(schemaDefault(schema, e.key));
      }
      if (owners.length === 0) expect(e.value, e.key).toBe(composeVars.get(e.key));
    }
  });

  it('comments out the settings without a default or with a different default per service', () => {
    const commented = new Set(entries.filter((e) => e.commented).map((e) => e.key));
    for (const key of [
      'ADMIN_ACCESS_CODE',
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'AI_PROVIDER',
      'CONCURRENCY',
      'HEALTH_PORT',
      'LOCK_DURATION_MS',
      'STALLED_INTERVAL_MS',
    ]) {
      expect(commented.has(key), key).toBe(true);
    }
  });
});
