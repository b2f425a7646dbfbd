import type { FastifyBaseLogger } from 'fastify';
import type { TAccessCode, TCredentials, TSessionAnswer, TUser } from '@aso/contracts';
import {
  deactivateAccessCode,
  findAccessCode,
  findUserByEmail,
  insertAccessCode,
  insertSession,
  insertUser,
  listActiveAccessCodes,
  listLiveAdminCodes,
  revokeSession,
  takeAccessCodeUse,
  type AccessCodeRow,
  type Db,
  type SessionIdentity,
  type UserRow,
} from '@aso/db';
import { AppError } from '../lib/app-error';
import {
  canonicalAccessCode,
  generateAccessCode,
  hashToken,
  newSessionToken,
  sameSecret,
} from './credentials.service';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Messages of refused sign-ins, shown by the client as they are (spec section 8: 'Login
 * Failed' / 'Registration Failed' show the server message).
 */
export const ACCESS_MESSAGES = {
  invalid: 'Invalid email or access code',
  expired: 'This access code has expired',
  usedUp: 'This access code has no uses left',
  deactivated: 'This access code has been deactivated',
  emailTaken: 'An account with this email already exists. Please log in.',
} as const;

/** `max_uses` of the admin code created from `ADMIN_ACCESS_CODE` (it can also register users). */
export const ADMIN_CODE_MAX_USES = 100;

/** How many times code generation retries after hitting an existing code (80 bits: never, in practice). */
const GENERATE_ATTEMPTS = 3;

/** Longest admin code looked at; a longer header is refused without reading the table. */
const MAX_ADMIN_CODE_CHARS = 200;

/** Session settings from the environment. */
export interface SessionSettings {
  /** Session lifetime in days (`SESSION_TTL_DAYS`). */
  ttlDays: number;
}

/** The spec's User (section 3) from a `users` row. */
export function toUser(row: Pick<UserRow, 'id' | 'email' | 'created_at'>): TUser {
  return { id: row.id, email: row.email, createdAt: row.created_at.toISOString() };
}

/** The spec's User behind a live session. */
export function identityUser(identity: SessionIdentity): TUser {
  return {
    id: identity.userId,
    email: identity.email,
    createdAt: identity.userCreatedAt.toISOString(),
  };
}

/** An access code as admins see it (contracts `ZAccessCode`). */
export function toAccessCodeDto(row: AccessCodeRow): TAccessCode {
  return {
    id: row.id,
    code: row.code,
    max_uses: row.max_uses,
    uses: row.uses,
    is_admin: row.is_admin,
    active: row.active,
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
  };
}

const isExpired = (row: AccessCodeRow, now: Date) =>
  row.expires_at !== null && row.expires_at.getTime() <= now.getTime();

const invalid = () => new AppError('UNAUTHORIZED', ACCESS_MESSAGES.invalid);

/** Why register could not take a use of `row` (undefined: no such code). */
function registerRefusal(row: AccessCodeRow | undefined, now: Date): AppError {
  if (!row) return invalid();
  if (!row.active) return new AppError('FORBIDDEN', ACCESS_MESSAGES.deactivated);
  if (isExpired(row, now)) return new AppError('FORBIDDEN', ACCESS_MESSAGES.expired);
  if (row.uses >= row.max_uses) return new AppError('FORBIDDEN', ACCESS_MESSAGES.usedUp);
  return invalid();
}

async function openSession(
  db: Db,
  user: UserRow,
  accessCodeId: string,
  settings: SessionSettings,
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
 * Registers `email` with an access code and opens a session (DESIGN section 5). In one
 * transaction: takes one use of the code with a single conditional UPDATE (so concurrent
 * registrations never exceed `max_uses`), inserts the user, stores the session's token hash.
 * Any failure rolls back, giving the use back.
 *
 * The code is judged before the email: an unknown code answers 401 'Invalid email or access
 * code'; a deactivated, expired or used-up one 403 with its own message. Only a caller
 * holding a usable code learns that an email is taken (409 'An account with this email
 * already exists. Please log in.'): the person must be told to log in instead, and the
 * register rate limits (per IP and per email) bound such probing.
 *
 * @throws AppError UNAUTHORIZED, FORBIDDEN or CONFLICT as above.
 */
export async function registerUser(
  db: Db,
  credentials: TCredentials,
  settings: SessionSettings,
): Promise<TSessionAnswer> {
  const code = canonicalAccessCode(credentials.accessCode);
  const now = new Date();
  return db.transaction().execute(async (trx) => {
    const taken = await takeAccessCodeUse(trx, code, now);
    if (!taken) throw registerRefusal(await findAccessCode(trx, code), now);
    const user = await insertUser(trx, credentials.email, taken.id);
    if (!user) throw new AppError('CONFLICT', ACCESS_MESSAGES.emailTaken);
    return openSession(trx, user, taken.id, settings, now);
  });
}

/**
 * Signs in an existing user with the access code they registered with, which must be
 * active and unexpired; a used-up code still admits its own users (spec section 6).
 *
 * The code's own state is judged first and does not depend on the email (unknown code:
 * 401 'Invalid email or access code'; deactivated or expired: 403 with its message); then
 * an unknown email, or a user who registered with another code, gets the same 401 as an
 * unknown code, so the answer never tells whether an email is registered.
 *
 * @throws AppError UNAUTHORIZED or FORBIDDEN as above.
 */
export async function loginUser(
  db: Db,
  credentials: TCredentials,
  settings: SessionSettings,
): Promise<TSessionAnswer> {
  const now = new Date();
  const code = await findAccessCode(db, canonicalAccessCode(credentials.accessCode));
  if (!code) throw invalid();
  if (!code.active) throw new AppError('FORBIDDEN', ACCESS_MESSAGES.deactivated);
  if (isExpired(code, now)) throw new AppError('FORBIDDEN', ACCESS_MESSAGES.expired);
  const user = await findUserByEmail(db, credentials.email);
  if (!user || user.access_code_id !== code.id) throw invalid();
  return openSession(db, user, code.id, settings, now);
}

/**
 * Revokes the session of `token` (a no-op for a missing, unknown or already dead token).
 * Returns whether a live session was revoked.
 */
export async function logoutSession(db: Db, token: string | null): Promise<boolean> {
  if (!token) return false;
  return (await revokeSession(db, hashToken(token), new Date())) > 0;
}

/**
 * Creates a normal (non-admin) access code: `maxUses` >= 1, optional `expiresInDays` >= 1
 * (absent: never expires). The code comes from the CSPRNG (80 bits, grouped Crockford
 * base32).
 *
 * @throws Error when GENERATE_ATTEMPTS random codes all already exist (not expected).
 */
export async function createAccessCode(
  db: Db,
  options: { maxUses: number; expiresInDays?: number | undefined },
): Promise<TAccessCode> {
  const now = Date.now();
  for (let i = 0; i < GENERATE_ATTEMPTS; i++) {
    const row = await insertAccessCode(db, {
      code: generateAccessCode(),
      max_uses: options.maxUses,
      expires_at: options.expiresInDays ? new Date(now + options.expiresInDays * DAY_MS) : null,
    });
    if (row) return toAccessCodeDto(row);
  }
  throw new Error(`could not generate a new access code in ${GENERATE_ATTEMPTS} attempts`);
}

/** Active access codes (admin ones included), newest first, as admins see them. */
export async function activeAccessCodes(db: Db): Promise<TAccessCode[]> {
  return (await listActiveAccessCodes(db)).map(toAccessCodeDto);
}

/**
 * Deactivates the access code `rawCode` (any case, dashes optional) and revokes the sessions
 * opened with it. An admin may not deactivate the admin code of the current request (it
 * would lock them out mid-action); another admin code can.
 *
 * @throws AppError NOT_FOUND for an unknown code, CONFLICT for the caller's own code.
 */
export async function deactivateCode(
  db: Db,
  rawCode: string,
  callerAdminCodeId: string | null,
): Promise<{ code: TAccessCode; revokedSessions: number }> {
  const code = canonicalAccessCode(rawCode);
  const existing = await findAccessCode(db, code);
  if (!existing) throw new AppError('NOT_FOUND', 'Access code not found');
  if (existing.id === callerAdminCodeId) {
    throw new AppError('CONFLICT', 'You cannot deactivate the admin code you are signed in with');
  }
  const done = await deactivateAccessCode(db, code, new Date());
  if (!done) throw new AppError('NOT_FOUND', 'Access code not found');
  return { code: toAccessCodeDto(done.code), revokedSessions: done.revokedSessions };
}

/**
 * The live admin code (active, unexpired, `is_admin`) that `presented` denotes, or null
 * (also for anything longer than 200 characters).
 * Every live admin code is compared with {@link sameSecret} (constant time, no early exit),
 * so the answer time does not tell how much of a guess was right (DESIGN section 5).
 */
export async function findAdminCode(
  db: Db,
  presented: string,
): Promise<{ id: string; code: string } | null> {
  if (presented.length > MAX_ADMIN_CODE_CHARS) return null;
  const candidate = canonicalAccessCode(presented);
  const codes = await listLiveAdminCodes(db, new Date());
  let match: { id: string; code: string } | null = null;
  for (const c of codes) {
    if (sameSecret(candidate, c.code) && candidate.length > 0) match = c;
  }
  return match;
}

/**
 * Creates the admin code `rawCode` (from `ADMIN_ACCESS_CODE`) unless it exists, with
 * {@link ADMIN_CODE_MAX_USES} uses and no expiry. Idempotent: an existing code is left as it
 * is, so an admin's deactivation survives restarts (a warning says so). The code is stored
 * in canonical form and never logged.
 *
 * @returns 'created' or 'exists'.
 * @throws Error when the code has no letters or digits.
 */
export async function ensureAdminAccessCode(
  db: Db,
  rawCode: string,
  log: FastifyBaseLogger,
): Promise<'created' | 'exists'> {
  const code = canonicalAccessCode(rawCode);
  if (!/[0-9A-Z]/.test(code)) throw new Error('ADMIN_ACCESS_CODE has no letters or digits');
  const created = await insertAccessCode(db, {
    code,
    max_uses: ADMIN_CODE_MAX_USES,
    is_admin: true,
  });
  if (created) {
    log.info({ accessCodeId: created.id }, 'admin access code created from ADMIN_ACCESS_CODE');
    return 'created';
  }
  const existing = await findAccessCode(db, code);
  if (existing && !existing.is_admin) {
    log.warn(
      { accessCodeId: existing.id },
      'ADMIN_ACCESS_CODE equals an existing non-admin access code; it grants no admin access',
    );
  } else if (existing && !existing.active) {
    log.warn(
      { accessCodeId: existing.id },
      'ADMIN_ACCESS_CODE was deactivated by an admin; set a new value to get an admin code',
    );
  }
  return 'exists';
}
