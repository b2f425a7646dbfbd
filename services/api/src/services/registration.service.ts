import type { TCredentials, TRegisterAnswer } from '@aso/contracts';
import {
  findAccessCode,
  findUserByEmail,
  insertUser,
  recordSignIn,
  takeAccessCodeUse,
  type TAccessCodeRow,
  type TDb,
} from '@aso/db';
import { AppError } from '../lib/app-error';
import { ACCESS_MESSAGES, invalidCredentials, isExpired } from './access.refusals';
import {
  canonicalAccessCode,
  codeHash,
  generateAccessCode,
  sameSecret,
} from './credentials.service';
import { openSession, type TSessionSettings } from './session.service';

/** Why register could not take a use of `row` (undefined: no such code). */
function registerRefusal(row: TAccessCodeRow | undefined, now: Date): AppError {
  if (!row) return invalidCredentials();
  if (!row.active) return new AppError('FORBIDDEN', ACCESS_MESSAGES.deactivated);
  if (isExpired(row, now)) return new AppError('FORBIDDEN', ACCESS_MESSAGES.expired);
  if (row.uses >= row.max_uses) return new AppError('FORBIDDEN', ACCESS_MESSAGES.usedUp);
  return invalidCredentials();
}

/** Whether `canonical` is the personal sign-in code of the account of `email`. */
async function isPersonalCode(db: TDb, email: string, canonical: string): Promise<boolean> {
  const user = await findUserByEmail(db, email);
  return user?.sign_in_code_hash ? sameSecret(codeHash(canonical), user.sign_in_code_hash) : false;
}

/**
 * Registers `email` with an access code and opens a session (docs/product.md#access-and-sessions).
 * In one transaction: takes one use of the code with a single conditional UPDATE (so concurrent
 * registrations never exceed `max_uses`), inserts the user with a new personal sign-in code (stored
 * only as its hash), stores the session's token hash. Any failure rolls back, giving the use back.
 * The personal code is in the answer (`signInCode`) and nowhere else: the user signs in with it
 * from then on, since the access code may be shared by many.
 *
 * The code is judged before the email: an unknown code answers 401 'Invalid email or access
 * code'; a deactivated, expired or used-up one 403 with its own message. Only a caller
 * holding a usable code learns that an email is taken (409 'An account with this email
 * already exists. Please log in.'): the person must be told to log in instead, and the
 * register rate limits (per IP and per email) bound such probing. A code that is no access code
 * but the personal sign-in code of the email's account answers 401 'This is your personal
 * sign-in code: ... sign in with it' (reason `PERSONAL_CODE`): the caller holds that account's
 * secret already.
 *
 * @throws AppError UNAUTHORIZED, FORBIDDEN or CONFLICT as above.
 */
export async function registerUser(
  db: TDb,
  credentials: TCredentials,
  settings: TSessionSettings,
): Promise<TRegisterAnswer> {
  const code = canonicalAccessCode(credentials.accessCode);
  const now = new Date();
  const signInCode = generateAccessCode();
  return db.transaction().execute(async (trx) => {
    const taken = await takeAccessCodeUse(trx, code, codeHash(code), now);
    if (!taken) {
      const row = await findAccessCode(trx, code, codeHash(code));
      if (!row && (await isPersonalCode(trx, credentials.email, code))) {
        throw new AppError('UNAUTHORIZED', ACCESS_MESSAGES.personalCode, {
          reason: 'PERSONAL_CODE',
        });
      }
      throw registerRefusal(row, now);
    }
    const user = await insertUser(
      trx,
      credentials.email,
      taken.id,
      codeHash(canonicalAccessCode(signInCode)),
    );
    if (!user) throw new AppError('CONFLICT', ACCESS_MESSAGES.emailTaken);
    await recordSignIn(trx, user.id, now);
    return { ...(await openSession(trx, user, taken.id, settings, now)), signInCode };
  });
}
