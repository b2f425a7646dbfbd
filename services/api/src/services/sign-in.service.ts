import type { TCredentials, TSessionAnswer } from '@aso/contracts';
import {
  findAccessCode,
  findAccessCodeById,
  findUserByEmail,
  recordSignIn,
  type TDb,
} from '@aso/db';
import { AppError } from '../lib/app-error';
import { ACCESS_MESSAGES, invalidCredentials, isExpired } from './access.refusals';
import { canonicalAccessCode, codeHash, sameSecret } from './credentials.service';
import { openSession, type TSessionSettings } from './session.service';

/** 401 'This is an invite code: sign up with it.' (reason `INVITE_CODE`). */
const inviteCodeRefusal = () =>
  new AppError('UNAUTHORIZED', ACCESS_MESSAGES.inviteCode, { reason: 'INVITE_CODE' });

/**
 * Whether `canonical` is an invite code: a shared access code that signs people up (never an
 * admin code: an admin code is never confirmed to anyone outside the admin check).
 */
async function isInviteCode(db: TDb, canonical: string): Promise<boolean> {
  if (canonical === '') return false;
  const row = await findAccessCode(db, canonical, codeHash(canonical));
  return row !== undefined && !row.is_admin;
}

/**
 * Signs in an existing user with their personal sign-in code (given at registration or by an
 * admin), compared by hash in constant time. The access code they registered with must still
 * be active and unexpired (deactivating it locks its users out); a used-up code still admits
 * its own users. A code other users also hold (the access code itself) never signs anyone in.
 *
 * Every wrong pair answers the same 401 'Invalid email or access code', so the answer never
 * tells whether an email is registered; with these exceptions, each for a caller who already
 * holds a secret: a user who registered before personal codes existed and presents the access
 * code they registered with is told to ask an administrator for a personal code (403, reason
 * `NO_PERSONAL_CODE`); an invite code, whatever the email, is answered 'This is an invite
 * code: sign up with it' (401, reason `INVITE_CODE`; the same for every email, so it says
 * nothing of the account); a user whose access code was deactivated or expired gets its 403.
 *
 * @throws AppError UNAUTHORIZED or FORBIDDEN as above.
 */
export async function loginUser(
  db: TDb,
  credentials: TCredentials,
  settings: TSessionSettings,
): Promise<TSessionAnswer> {
  const now = new Date();
  const presented = canonicalAccessCode(credentials.accessCode);
  const user = await findUserByEmail(db, credentials.email);
  // Hashed even when there is no such user, so the answer time does not tell.
  const presentedHash = codeHash(presented);
  const personal = user?.sign_in_code_hash
    ? sameSecret(presentedHash, user.sign_in_code_hash)
    : false;
  const code = user?.access_code_id ? await findAccessCodeById(db, user.access_code_id) : undefined;
  if (!user || !personal) {
    if (user && !user.sign_in_code_hash && code?.code === presented) {
      throw new AppError('FORBIDDEN', ACCESS_MESSAGES.noPersonalCode, {
        reason: 'NO_PERSONAL_CODE',
      });
    }
    if (await isInviteCode(db, presented)) throw inviteCodeRefusal();
    throw invalidCredentials();
  }
  if (!code) throw invalidCredentials();
  if (!code.active) throw new AppError('FORBIDDEN', ACCESS_MESSAGES.deactivated);
  if (isExpired(code, now)) throw new AppError('FORBIDDEN', ACCESS_MESSAGES.expired);
  await recordSignIn(db, user.id, now);
  return openSession(db, user, code.id, settings, now);
}
