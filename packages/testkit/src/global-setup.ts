import { ensureTemplate } from './pg';
import { provideTestServices } from './services';

/**
 * vitest globalSetup of the projects that need PostgreSQL and Redis: picks where they come
 * from (loopback, `DATABASE_URL` / `REDIS_URL`, or containers on a laptop with Docker; logged),
 * then migrates the template database once. Answers the teardown, which stops any container.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const stop = await provideTestServices();
  try {
    await ensureTemplate();
  } catch (err) {
    await stop();
    throw err;
  }
  return stop;
}
