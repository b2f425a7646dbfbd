import type { FastifyBaseLogger } from 'fastify';
import type {
  TAccessCode,
  TAdminUser,
  TCredentials,
  TRegisterAnswer,
  TSessionAnswer,
  TUser,
} from '@aso/contracts';
import {
  deactivateAccessCode,
  findAccessCode,
  findAccessCodeById,
  isUuid,
  listUsers,
  recordSignIn,
  setSignInCode,
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
  noPersonalCode:
    'Your account has no personal sign-in code yet: the access code you registered with is shared, so it no longer signs you in. Please ask your administrator for a personal sign-in code.',
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
    // Admin codes are stored only as a hash: there is nothing to show or copy.
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

/** The hex SHA-256 under which an access or sign-in code is stored (of its canonical form). */
export function codeHash(canonical: string): string {
  return hashToken(canonical);
}

/**
 * Registers `email` with an access code and opens a session (DESIGN section 5). In one
 * transaction: takes one use of the code with a single conditional UPDATE (so concurrent
 * registrations never exceed `max_uses`), inserts the user with a new personal sign-in code
 * (stored only as its hash), stores the session's token hash. Any failure rolls back, giving
 * the use back. The personal code is in the answer (`signInCode`) and nowhere else: the user
 * signs in with it from then on, since the access code may be shared by many.
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
): Promise<TRegisterAnswer> {
  const code = canonicalAccessCode(credentials.accessCode);
  const now = new Date();
  const signInCode = generateAccessCode();
  return db.transaction().execute(async (trx) => {
    const taken = await takeAccessCodeUse(trx, code, codeHash(code), now);
    if (!taken) throw registerRefusal(await findAccessCode(trx, code, codeHash(code)), now);
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

/**
 * Signs in an existing user with their personal sign-in code (given at registration or by an
 * admin), compared by hash in constant time. The access code they registered with must still
 * be active and unexpired (deactivating it locks its users out); a used-up code still admits
 * its own users. A code other users also hold (the access code itself) never signs anyone in.
 *
 * Every wrong pair answers the same 401 'Invalid email or access code', so the answer never
 * tells whether an email is registered; with two exceptions, both for a caller who already
 * holds a secret of that account: a user who registered before personal codes existed and
 * presents the access code they registered with is told to ask an administrator for a
 * personal code (403); and a user whose access code was deactivated or expired gets its 403.
 *
 * @throws AppError UNAUTHORIZED or FORBIDDEN as above.
 */
export async function loginUser(
  db: Db,
  credentials: TCredentials,
  settings: SessionSettings,
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
      throw new AppError('FORBIDDEN', ACCESS_MESSAGES.noPersonalCode);
    }
    throw invalid();
  }
  if (!code) throw invalid();
  if (!code.active) throw new AppError('FORBIDDEN', ACCESS_MESSAGES.deactivated);
  if (isExpired(code, now)) throw new AppError('FORBIDDEN', ACCESS_MESSAGES.expired);
  await recordSignIn(db, user.id, now);
  return openSession(db, user, code.id, settings, now);
}

/** A user as the admin's Users card shows it (contracts `ZAdminUser`). */
export function toAdminUser(row: UserRow): TAdminUser {
  return {
    id: row.id,
    email: row.email,
    createdAt: row.created_at.toISOString(),
    lastSignInAt: row.last_sign_in_at ? row.last_sign_in_at.toISOString() : null,
    hasSignInCode: row.sign_in_code_hash !== null,
  };
}

/** Every user, newest first, for the admin's Users card. */
export async function adminUsers(db: Db): Promise<TAdminUser[]> {
  return (await listUsers(db)).map(toAdminUser);
}

/**
 * Issues user `userId` a new personal sign-in code (the admin hands it over): the previous one
 * stops working at once; sessions already open stay. The code is returned once and stored only
 * as its hash.
 *
 * @throws AppError NOT_FOUND for an unknown user.
 */
export async function issueSignInCode(
  db: Db,
  userId: string,
): Promise<{ user: TAdminUser; signInCode: string }> {
  const signInCode = generateAccessCode();
  const row = isUuid(userId)
    ? await setSignInCode(db, userId, codeHash(canonicalAccessCode(signInCode)))
    : undefined;
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  return { user: toAdminUser(row), signInCode };
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
 * Deactivates the access code `rawCode` (any case, dashes optional; or the code's id, how admin
 * codes are named) and revokes the sessions
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
  // Admin codes are stored as hashes and shown without their code: they are named by id.
  const existing = isUuid(rawCode)
    ? await findAccessCodeById(db, rawCode)
    : await findAccessCode(db, code, codeHash(code));
  if (!existing) throw new AppError('NOT_FOUND', 'Access code not found');
  if (existing.id === callerAdminCodeId) {
    throw new AppError('CONFLICT', 'You cannot deactivate the admin code you are signed in with');
  }
  const done = await deactivateAccessCode(db, existing.id, new Date());
  if (!done) throw new AppError('NOT_FOUND', 'Access code not found');
  return { code: toAccessCodeDto(done.code), revokedSessions: done.revokedSessions };
}

/**
 * The live admin code (active, unexpired, `is_admin`) that `presented` denotes, or null
 * (also for anything longer than 200 characters). Admin codes are stored only as the SHA-256
 * of their canonical form; the presented code's hash is compared with every live one with
 * {@link sameSecret} (constant time, no early exit), so the answer time does not tell how much
 * of a guess was right (DESIGN section 5).
 */
export async function findAdminCode(db: Db, presented: string): Promise<{ id: string } | null> {
  if (presented.length > MAX_ADMIN_CODE_CHARS) return null;
  const candidate = canonicalAccessCode(presented);
  const hash = codeHash(candidate);
  const codes = await listLiveAdminCodes(db, new Date());
  let match: { id: string } | null = null;
  for (const c of codes) {
    if (c.code_hash && sameSecret(hash, c.code_hash) && candidate.length > 0) match = { id: c.id };
  }
  return match;
}

/**
 * Creates the admin code `rawCode` (from `ADMIN_ACCESS_CODE`) unless it exists, with
 * {@link ADMIN_CODE_MAX_USES} uses and no expiry. Idempotent: an existing code is left as it
 * is, so an admin's deactivation survives restarts (a warning says so). Only the SHA-256 of
 * its canonical form is stored; the code is never logged.
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
    code: null,
    code_hash: codeHash(code),
    max_uses: ADMIN_CODE_MAX_USES,
    is_admin: true,
  });
  if (created) {
    log.info({ accessCodeId: created.id }, 'admin access code created from ADMIN_ACCESS_CODE');
    return 'created';
  }
  const existing = await findAccessCode(db, code, codeHash(code));
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
