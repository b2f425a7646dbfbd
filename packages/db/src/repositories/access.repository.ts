import type { Db } from '../client';
import type { AccessCodeRow, NewAccessCode, SessionRow, UserRow } from '../schema';

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

/** The access code whose canonical form is `code`, or undefined. */
export async function findAccessCode(db: Db, code: string): Promise<AccessCodeRow | undefined> {
  return db.selectFrom('access_codes').selectAll().where('code', '=', code).executeTakeFirst();
}

/**
 * Takes one use of the access code `code` if it is active, unexpired at `now` and has uses
 * left, in ONE conditional `UPDATE ... RETURNING`: PostgreSQL locks the row and re-checks the
 * condition on the latest version, so concurrent callers can never take more than
 * `max_uses` uses. Returns the updated row, or undefined when no use was taken (the caller
 * reads the code to say why). Run it in the transaction that creates the user, so a failed
 * user insert gives the use back.
 */
export async function takeAccessCodeUse(
  db: Db,
  code: string,
  now: Date,
): Promise<AccessCodeRow | undefined> {
  return db
    .updateTable('access_codes')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('code', '=', code)
    .where('active', '=', true)
    .whereRef('uses', '<', 'max_uses')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .returningAll()
    .executeTakeFirst();
}

/** Inserts a new access code; undefined when that code already exists (unique `code`). */
export async function insertAccessCode(
  db: Db,
  values: NewAccessCode,
): Promise<AccessCodeRow | undefined> {
  return db
    .insertInto('access_codes')
    .values(values)
    .onConflict((oc) => oc.column('code').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Active access codes (admin and not, expired or not), newest first. */
export async function listActiveAccessCodes(db: Db): Promise<AccessCodeRow[]> {
  return db
    .selectFrom('access_codes')
    .selectAll()
    .where('active', '=', true)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Admin codes that are active and unexpired at `now` (few: compared one by one by callers). */
export async function listLiveAdminCodes(
  db: Db,
  now: Date,
): Promise<Pick<AccessCodeRow, 'id' | 'code'>[]> {
  return db
    .selectFrom('access_codes')
    .select(['id', 'code'])
    .where('is_admin', '=', true)
    .where('active', '=', true)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
}

/**
 * Deactivates the access code `code` and revokes, at `now`, every live session opened with
 * it, in one transaction. Returns the updated code and the number of sessions revoked, or
 * undefined when no such code exists. Deactivating an inactive code again changes nothing
 * but still revokes any session left. Takes a `Db`, not a transaction (it opens its own).
 */
export async function deactivateAccessCode(
  db: Db,
  code: string,
  now: Date,
): Promise<{ code: AccessCodeRow; revokedSessions: number } | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('access_codes')
      .set({ active: false })
      .where('code', '=', code)
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

/** The user with this (normalised) email, or undefined. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/**
 * Inserts a user registered with access code `accessCodeId`; undefined when the email is
 * already taken (unique `email`; a concurrent insert of the same email waits for the other
 * transaction and then yields undefined if it committed).
 */
export async function insertUser(
  db: Db,
  email: string,
  accessCodeId: string,
): Promise<UserRow | undefined> {
  return db
    .insertInto('users')
    .values({ email, access_code_id: accessCodeId })
    .onConflict((oc) => oc.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Stores a new session by its token hash (hex SHA-256; the token itself is never stored). */
export async function insertSession(
  db: Db,
  values: { tokenHash: string; userId: string; accessCodeId: string; expiresAt: Date },
): Promise<SessionRow> {
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
export async function revokeSession(db: Db, tokenHash: string, now: Date): Promise<number> {
  const res = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
