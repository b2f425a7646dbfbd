import { createDb, ensureDatabase, migrateToLatest } from './client';
import { dbEnv } from './env';

// `pnpm db:migrate`: create the database if missing, then apply every pending migration.
const created = await ensureDatabase(dbEnv.DATABASE_URL);
const db = createDb(dbEnv.DATABASE_URL, { max: 1 });
try {
  const { results = [] } = await migrateToLatest(db);
  if (created) console.log('created database');
  for (const r of results) console.log(`${r.status}: ${r.migrationName}`);
  console.log(results.length ? `applied ${results.length} migration(s)` : 'database is up to date');
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
