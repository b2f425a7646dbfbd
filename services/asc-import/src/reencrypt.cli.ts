import { openSecret, sealSecret, secretsKeyFrom } from '@aso/asc';
import { createDb, listAscSealedKeys, updateAscSealedKey } from '@aso/db';
import { loadReencryptEnv } from './env';

// `pnpm secrets:reencrypt`: rotates SECRETS_KEY. Opens every stored App Store Connect private
// key with SECRETS_KEY_PREVIOUS and seals it again with SECRETS_KEY, in one transaction (all
// or nothing). Keys already sealed with the new key are left as they are, so a second run is
// harmless. Run it with the importer stopped, then restart everything with the new key.
const env = loadReencryptEnv();
const previous = secretsKeyFrom(env.SECRETS_KEY_PREVIOUS);
const next = secretsKeyFrom(env.SECRETS_KEY);
const db = createDb(env.DATABASE_URL, { max: 1 });
try {
  const counts = await db.transaction().execute(async (trx) => {
    let resealed = 0;
    let already = 0;
    for (const row of await listAscSealedKeys(trx)) {
      try {
        openSecret(row.private_key_sealed, next, row.id);
        already++;
        continue;
      } catch {
        // Not sealed with the new key yet.
      }
      const plain = openSecret(row.private_key_sealed, previous, row.id);
      await updateAscSealedKey(trx, row.id, sealSecret(plain, next, row.id));
      resealed++;
    }
    return { resealed, already };
  });
  console.log(
    `re-encrypted ${counts.resealed} App Store Connect key(s); ${counts.already} already sealed with the new SECRETS_KEY`,
  );
} catch (error) {
  console.error(`re-encrypt failed, nothing changed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
