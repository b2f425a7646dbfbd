import type { Db } from '../client';

/** The signed-in identity behind a live session. */
export interface SessionIdentity {
  sessionId: string;
  userId: string;
  email: string;
  userCreatedAt: Date;
  /** The access code the session was opened with (null when that code was deleted). */
  accessCodeId: string | null;
}

/**
 * Finds the live session whose token hash is `tokenHash` (hex SHA-256 of the bearer token):
 * not revoked, not expired, and opened with a code that is still active. Returns null
 * otherwise.
 */
export async function findLiveSession(db: Db, tokenHash: string): Promise<SessionIdentity | null> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('access_codes as c', 'c.id', 's.access_code_id')
    .select([
      's.id as sessionId',
      'u.id as userId',
      'u.email as email',
      'u.created_at as userCreatedAt',
      's.access_code_id as accessCodeId',
      'c.active as codeActive',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row || row.codeActive === false) return null;
  const { codeActive: _ignored, ...identity } = row;
  return identity;
}
