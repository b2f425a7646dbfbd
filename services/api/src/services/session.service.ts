import type { TSessionAnswer } from '@aso/contracts';
import { insertSession, revokeSession, type TDb, type TUserRow } from '@aso/db';
import { hashToken, newSessionToken } from './credentials.service';
import { toUser } from './user.mappers';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Session settings from the environment. */
export interface TSessionSettings {
  /** Session lifetime in days (`SESSION_TTL_DAYS`). */
  ttlDays: number;
}

/**
 * Opens a session of `user`, signed in with access code `accessCodeId`, for `settings.ttlDays`
 * from `now` (docs/product.md#access-and-sessions). Only the token's hash is stored; the token
 * itself is in the answer and nowhere else.
 */
export async function openSession(
  db: TDb,
  user: TUserRow,
  accessCodeId: string,
  settings: TSessionSettings,
  now: Date,
): Promise<TSessionAnswer> {
  const sessionToken = newSessionToken();
  await insertSession(db, {
    tokenHash: hashToken(sessionToken),
    userId: user.id,
    accessCodeId,
    expiresAt: new Date(now.getTime() + settings.ttlDays * DAY_MS),
  });
  return { sessionToken, user: toUser(user) };
}

/**
 * Revokes the session of `token` (a no-op for a missing, unknown or already dead token).
 * Returns whether a live session was revoked.
 */
export async function logoutSession(db: TDb, token: string | null): Promise<boolean> {
  if (!token) return false;
  return (await revokeSession(db, hashToken(token), new Date())) > 0;
}
