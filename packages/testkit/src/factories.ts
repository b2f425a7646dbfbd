import { randomBytes } from 'node:crypto';
import { hashSessionToken, insertSession, type TDb } from '@aso/db';

/** A user made by {@link createTestUser}: ids, its bearer token and the header carrying it. */
export interface TTestUser {
  email: string;
  userId: string;
  /** The (non-admin) access code the user registered with. */
  accessCodeId: string;
  /** A live session token (stored only as its hash, like a real one). */
  token: string;
  headers: { authorization: string };
}

/**
 * The one test user factory: creates, directly in the database, what registration and sign-in
 * leave behind: a fresh invite access code (10 uses), the user holding it and a session live
 * for an hour whose stored hash is `hashSessionToken(token)`. `email` defaults to a unique
 * `user-<hex>@example.com`.
 *
 * @throws the database's error when `email` is already taken (unique `users.email`).
 */
export async function createTestUser(
  db: TDb,
  email = `user-${randomBytes(6).toString('hex')}@example.com`,
): Promise<TTestUser> {
  const code = await db
    .insertInto('access_codes')
    .values({ code: `TEST-${randomBytes(4).toString('hex').toUpperCase()}`, max_uses: 10 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({ email, access_code_id: code.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = randomBytes(32).toString('base64url');
  await insertSession(db, {
    tokenHash: hashSessionToken(token),
    userId: user.id,
    accessCodeId: code.id,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return {
    email,
    userId: user.id,
    accessCodeId: code.id,
    token,
    headers: { authorization: `Bearer ${token}` },
  };
}
