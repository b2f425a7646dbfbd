import { hash } from 'node:crypto';
import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TAccessCodeRow, TNewAccessCode, TSessionRow, TUserRow } from '../schema';
import { afterKey, pageAt, toPage, type TPage, type TPageRequest } from './page.sql';
import { storageBytesOf } from './storage.repository';

/** The signed-in identity behind a live session. */
export interface TSessionIdentity {
  sessionId: string;
  userId: string;
  email: string;
  userCreatedAt: Date;
  /** The access code the session was opened with (null when that code was deleted). */
  accessCodeId: string | null;
  /** When the session lapses (its `expires_at`): a cached identity is not used past it. */
  expiresAt: Date;
}

/**
 * Finds the live session whose token hash is `tokenHash` (hex SHA-256 of the bearer token):
 * not revoked, not expired, and opened with a code that is still active. Returns null
 * otherwise.
 */
export async function findLiveSession(
  db: TDb,
  tokenHash: string,
): Promise<TSessionIdentity | null> {
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
      's.expires_at as expiresAt',
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

/**
 * The access code that `code` (canonical form) or `codeHash` (its hex SHA-256, how admin codes
 * are stored) denotes, or undefined.
 */
export async function findAccessCode(
  db: TDb,
  code: string,
  codeHash: string,
): Promise<TAccessCodeRow | undefined> {
  return db
    .selectFrom('access_codes')
    .selectAll()
    .where((eb) => eb.or([eb('code', '=', code), eb('code_hash', '=', codeHash)]))
    .executeTakeFirst();
}

/** The access code with id `id`, or undefined. */
export async function findAccessCodeById(db: TDb, id: string): Promise<TAccessCodeRow | undefined> {
  return db.selectFrom('access_codes').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Takes one use of the access code `code` (canonical form; or, for an admin code, whose hex
 * SHA-256 is `codeHash`) if it is active, unexpired at `now` and has uses
 * left, in ONE conditional `UPDATE ... RETURNING`: PostgreSQL locks the row and re-checks the
 * condition on the latest version, so concurrent callers can never take more than
 * `max_uses` uses. Returns the updated row, or undefined when no use was taken (the caller
 * reads the code to say why). Run it in the transaction that creates the user, so a failed
 * user insert gives the use back.
 */
export async function takeAccessCodeUse(
  db: TDb,
  code: string,
  codeHash: string,
  now: Date,
): Promise<TAccessCodeRow | undefined> {
  return db
    .updateTable('access_codes')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where((eb) => eb.or([eb('code', '=', code), eb('code_hash', '=', codeHash)]))
    .where('active', '=', true)
    .whereRef('uses', '<', 'max_uses')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .returningAll()
    .executeTakeFirst();
}

/**
 * Inserts a new access code: an invite code with `code`, or an admin code with only its
 * `code_hash`; undefined when that code already exists (unique `code` and `code_hash`).
 */
export async function insertAccessCode(
  db: TDb,
  values: TNewAccessCode,
): Promise<TAccessCodeRow | undefined> {
  return db
    .insertInto('access_codes')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** One page of the active access codes (admin and not, expired or not), newest first. */
export async function listActiveAccessCodes(
  db: TDb,
  page: TPageRequest,
): Promise<TPage<TAccessCodeRow>> {
  const rows = await db
    .selectFrom('access_codes')
    .selectAll()
    .select(pageAt('access_codes'))
    .where('active', '=', true)
    .where(afterKey('access_codes', page.after, 'desc'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit);
}

/** Admin codes that are active and unexpired at `now` (few: compared one by one by callers). */
export async function listLiveAdminCodes(
  db: TDb,
  now: Date,
): Promise<Pick<TAccessCodeRow, 'id' | 'code_hash'>[]> {
  return db
    .selectFrom('access_codes')
    .select(['id', 'code_hash'])
    .where('is_admin', '=', true)
    .where('active', '=', true)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
}

/**
 * Deactivates the access code with id `id` and revokes, at `now`, every live session opened with
 * it, in one transaction. Returns the updated code and the number of sessions revoked, or
 * undefined when no such code exists. Deactivating an inactive code again changes nothing
 * but still revokes any session left. Takes a `Db`, not a transaction (it opens its own).
 */
export async function deactivateAccessCode(
  db: TDb,
  id: string,
  now: Date,
): Promise<{ code: TAccessCodeRow; revokedSessions: number } | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('access_codes')
      .set({ active: false })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) return undefined;
    const revoked = await trx
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('access_code_id', '=', row.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return { code: row, revokedSessions: Number(revoked.numUpdatedRows) };
  });
}

/** The user with id `id`, or undefined when there is none. */
export async function findUserById(db: TDb, id: string): Promise<TUserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user with this (normalised) email, or undefined. */
export async function findUserByEmail(db: TDb, email: string): Promise<TUserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/**
 * Inserts a user registered with access code `accessCodeId`, whose personal sign-in code has
 * the hash `signInCodeHash` (hex SHA-256); undefined when the email is
 * already taken (unique `email`; a concurrent insert of the same email waits for the other
 * transaction and then yields undefined if it committed).
 */
export async function insertUser(
  db: TDb,
  email: string,
  accessCodeId: string,
  signInCodeHash: string,
): Promise<TUserRow | undefined> {
  return db
    .insertInto('users')
    .values({ email, access_code_id: accessCodeId, sign_in_code_hash: signInCodeHash })
    .onConflict((oc) => oc.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Hex SHA-256 of a session token: the only form in which tokens are stored. Worked out on
 * every signed-in request (the session cache is keyed by it), so with the one-shot
 * `crypto.hash`, a third of the CPU of a Hash object's create, update and digest.
 */
export function hashSessionToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Stores a new session by its token hash ({@link hashSessionToken}; the token itself is never stored). */
export async function insertSession(
  db: TDb,
  values: { tokenHash: string; userId: string; accessCodeId: string; expiresAt: Date },
): Promise<TSessionRow> {
  return db
    .insertInto('sessions')
    .values({
      token_hash: values.tokenHash,
      user_id: values.userId,
      access_code_id: values.accessCodeId,
      expires_at: values.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Revokes the session with this token hash at `now`; returns 1 if it was live-and-unrevoked, else 0. */
export async function revokeSession(db: TDb, tokenHash: string, now: Date): Promise<number> {
  const res = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Records a sign-in of user `userId` at `now` (shown to admins). */
export async function recordSignIn(db: TDb, userId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', userId).execute();
}

/**
 * Gives user `userId` a new personal sign-in code (its hex SHA-256); the previous one stops
 * working. Returns the user, or undefined when there is no such user.
 */
export async function setSignInCode(
  db: TDb,
  userId: string,
  signInCodeHash: string,
): Promise<TUserRow | undefined> {
  return db
    .updateTable('users')
    .set({ sign_in_code_hash: signInCodeHash })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/** A user as the admin's Users card lists it: the row and the bytes the user stores. */
export type TListedUser = TUserRow & { storage_bytes: number };

/** One page of the users, newest first, each with its stored bytes (the admin's Users card). */
export async function listUsers(db: TDb, page: TPageRequest): Promise<TPage<TListedUser>> {
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .select(storageBytesOf(sql.ref('users.id')).as('storage_bytes'))
    .select(pageAt('users'))
    .where(afterKey('users', page.after, 'desc'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const listed = toPage(rows, page.limit);
  return {
    rows: listed.rows.map((r) => ({ ...r, storage_bytes: Number(r.storage_bytes) })),
    next: listed.next,
  };
}

/**
 * Records a sign-in lock-out of the user with this (normalised) email, if there is one: one
 * more in `lockouts`, `last_lockout_at` now. An email nobody registered changes nothing.
 */
export async function recordLockout(db: TDb, email: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ lockouts: eb('lockouts', '+', 1), last_lockout_at: sql<Date>`now()` }))
    .where('email', '=', email)
    .execute();
}
