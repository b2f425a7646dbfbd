import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the test run's PostgreSQL and Redis come from. On these machines and in CI they run on
 * the loopback interface (or `DATABASE_URL` / `REDIS_URL` name them); on a developer's laptop
 * with neither variable set and a Docker engine, the test kit starts them as containers with
 * testcontainers instead, so a clone runs its tests with nothing installed but Docker.
 */

/** Where one service comes from: its variable, a container, or the loopback default. */
export type TServiceSource = 'env' | 'container' | 'loopback';

/** The choice for both services, with the reason logged at the start of a run. */
export interface TTestServicesChoice {
  postgres: TServiceSource;
  redis: TServiceSource;
  /** One line per service, e.g. 'PostgreSQL: container (DATABASE_URL unset, Docker answered)'. */
  lines: string[];
}

/** What the choice depends on: the two variables and whether a Docker engine answers. */
export interface TTestServicesInput {
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Asked only when a variable is unset (see {@link dockerEngineAnswers}). */
  dockerAnswers: boolean;
}

/**
 * Decides each service on its own: a set variable wins (`env`); an unset one gets a container
 * when a Docker engine answers, else the loopback default (127.0.0.1:5432, 127.0.0.1:6379).
 * An empty variable counts as unset. Pure: unit-tested.
 */
export function chooseTestServices(input: TTestServicesInput): TTestServicesChoice {
  const pick = (name: string, variable: string, value: string | undefined) => {
    const source: TServiceSource = value ? 'env' : input.dockerAnswers ? 'container' : 'loopback';
    const why =
      source === 'env'
        ? `${variable} is set`
        : `${variable} unset, ${input.dockerAnswers ? 'a Docker engine answered' : 'no Docker engine answered'}`;
    return { source, line: `${name}: ${source} (${why})` };
  };
  const postgres = pick('PostgreSQL', 'DATABASE_URL', input.databaseUrl);
  const redis = pick('Redis', 'REDIS_URL', input.redisUrl);
  return {
    postgres: postgres.source,
    redis: redis.source,
    lines: [postgres.line, redis.line],
  };
}

/**
 * Places a Docker engine is reached through when `DOCKER_HOST` is unset (the daemon's socket,
 * Docker Desktop's and a rootless daemon's) and testcontainers' own configuration file.
 */
export function dockerEndpointCandidates(env: NodeJS.ProcessEnv, home = homedir()): string[] {
  return [
    '/var/run/docker.sock',
    join(home, '.docker', 'run', 'docker.sock'),
    join(home, '.docker', 'desktop', 'docker.sock'),
    ...(env.XDG_RUNTIME_DIR ? [join(env.XDG_RUNTIME_DIR, 'docker.sock')] : []),
    join(home, '.testcontainers.properties'),
  ];
}

/**
 * True when a container engine answers: nothing to ask (false, without loading
 * testcontainers) unless `DOCKER_HOST` is set or one of {@link dockerEndpointCandidates}
 * exists; then testcontainers looks for the engine and pings it, for at most `timeoutMs`.
 */
export async function dockerEngineAnswers(timeoutMs = 5_000): Promise<boolean> {
  const env = process.env;
  if (!env.DOCKER_HOST && !dockerEndpointCandidates(env).some((p) => existsSync(p))) return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await Promise.race([
      getContainerRuntimeClient(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('no answer')), timeoutMs).unref(),
      ),
    ]);
    return true;
  } catch {
    return false;
  }
}

/** Started containers' URLs and how to stop them. */
export interface TStartedTestServices {
  databaseUrl?: string;
  redisUrl?: string;
  stop: () => Promise<void>;
}

/** Images of the containers: the versions production runs (docker-compose.yml). */
export const TEST_CONTAINER_IMAGES = {
  postgres: 'postgres:16',
  redis: 'redis:7',
};

/**
 * Starts the containers `choice` asks for (testcontainers, loaded only here) and answers their
 * URLs; `stop` removes them. Nothing is started for `env` and `loopback` services.
 */
export async function startTestContainers(
  choice: TTestServicesChoice,
): Promise<TStartedTestServices> {
  const stops: Array<() => Promise<unknown>> = [];
  const started: TStartedTestServices = {
    stop: async () => {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
  try {
    if (choice.postgres === 'container') {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const pg = await new PostgreSqlContainer(TEST_CONTAINER_IMAGES.postgres)
        .withUsername('postgres')
        .withPassword('postgres')
        .withDatabase('aso')
        .start();
      stops.push(() => pg.stop());
      started.databaseUrl = pg.getConnectionUri();
    }
    if (choice.redis === 'container') {
      const { RedisContainer } = await import('@testcontainers/redis');
      const redis = await new RedisContainer(TEST_CONTAINER_IMAGES.redis).start();
      stops.push(() => redis.stop());
      started.redisUrl = redis.getConnectionUrl();
    }
  } catch (err) {
    await started.stop();
    throw err;
  }
  return started;
}

/**
 * The test run's services (vitest globalSetup): decides with {@link chooseTestServices}
 * (asking for a Docker engine only when a variable is unset), logs the choice, starts the
 * containers it asks for and points `DATABASE_URL` / `REDIS_URL` at them, so the test
 * processes, which inherit the environment, use them. Answers the function that stops them.
 */
export async function provideTestServices(
  log: (line: string) => void = (line) => console.info(`[testkit] ${line}`),
): Promise<() => Promise<void>> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const redisUrl = process.env.REDIS_URL || undefined;
  const dockerAnswers = databaseUrl && redisUrl ? false : await dockerEngineAnswers();
  const choice = chooseTestServices({ databaseUrl, redisUrl, dockerAnswers });
  for (const line of choice.lines) log(line);
  const started = await startTestContainers(choice);
  if (started.databaseUrl) process.env.DATABASE_URL = started.databaseUrl;
  if (started.redisUrl) process.env.REDIS_URL = started.redisUrl;
  return started.stop;
}
