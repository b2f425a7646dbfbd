import { test as base } from 'vitest';
import { createTestDatabase, type TTestDatabase } from './pg';
import { deletePrefix, newPrefix, redisUrl } from './redis';

/** Per-file resources given to integration tests (STYLE: trigger.dev test fixtures). */
export interface TIntegrationFixtures {
  /** A real PostgreSQL database of this file's own, migrated, dropped afterwards. */
  database: TTestDatabase;
  /** A Redis/BullMQ key prefix of this file's own; its keys are deleted afterwards. */
  redis: { url: string; prefix: string };
}

/**
 * `it` for integration tests: `it('…', async ({ database, redis }) => …)`. Both
 * fixtures are file-scoped: created on first use in a file and removed after its last test.
 */
export const it = base.extend<{ $file: TIntegrationFixtures }>({
  database: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads fixture dependencies from the pattern
    async ({}, use) => {
      const database = await createTestDatabase();
      await use(database);
      await database.drop();
    },
    { scope: 'file' },
  ],
  redis: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads fixture dependencies from the pattern
    async ({}, use) => {
      const prefix = newPrefix();
      await use({ url: redisUrl(), prefix });
      await deletePrefix(prefix);
    },
    { scope: 'file' },
  ],
});
