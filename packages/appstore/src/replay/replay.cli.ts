/**
 * `pnpm store:replay`: serves the recorded App Store answers of `<FIXTURES_DIR>/appstore` at
 * Apple's paths until SIGINT/SIGTERM, with this project's constructed recordings beside them. Point `ITUNES_ORIGIN` and `APP_STORE_ORIGIN` at the
 * printed origin. Settings: see ./env.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CONSTRUCTED_RECORDINGS_DIR, loadReplayEnv } from './env';
import { startReplayServer } from './replay.server';

async function main(): Promise<void> {
  const env = loadReplayEnv();
  const fixturesDir = path.join(env.FIXTURES_DIR, 'appstore');
  const server = await startReplayServer({
    port: env.STORE_REPLAY_PORT,
    host: env.STORE_REPLAY_HOST,
    // The constructed search answers place the recorded apps at known ranks (offline demos).
    fixturesDir: existsSync(CONSTRUCTED_RECORDINGS_DIR)
      ? [fixturesDir, CONSTRUCTED_RECORDINGS_DIR]
      : fixturesDir,
    defaultDelayMs: env.STORE_REPLAY_DELAY_MS,
    asOf: env.STORE_REPLAY_AS_OF ?? null,
  });
  console.log(
    `App Store replay server on ${server.url} (recordings: ${fixturesDir}` +
      (server.asOf ? `, as of ${server.asOf})` : ')'),
  );
  console.log(`  ITUNES_ORIGIN=${server.url} APP_STORE_ORIGIN=${server.url}`);
  const stop = (signal: string) => {
    console.log(`${signal}: stopping the replay server`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(
    `Replay server failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
