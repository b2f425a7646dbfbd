import type { TAdminUser } from '@aso/contracts';
import {
  isUuid,
  listUsers,
  setSignInCode,
  userStorage,
  type TDb,
  type TPage,
  type TPageRequest,
} from '@aso/db';
import { AppError } from '../lib/app-error';
import { canonicalAccessCode, codeHash, generateAccessCode } from './credentials.service';
import { toAdminUser } from './user.mappers';

/** One page of the users, newest first, for the admin's Users card. */
export async function adminUsers(db: TDb, page: TPageRequest): Promise<TPage<TAdminUser>> {
  const listed = await listUsers(db, page);
  return { rows: listed.rows.map((r) => toAdminUser(r, r.storage_bytes)), next: listed.next };
}

/**
 * Issues user `userId` a new personal sign-in code (the admin hands it over): the previous one
 * stops working at once; sessions already open stay. The code is returned once and stored only
 * as its hash.
 *
 * @throws AppError NOT_FOUND for an unknown user.
 */
export async function issueSignInCode(
  db: TDb,
  userId: string,
): Promise<{ user: TAdminUser; signInCode: string }> {
  const signInCode = generateAccessCode();
  const row = isUuid(userId)
    ? await setSignInCode(db, userId, codeHash(canonicalAccessCode(signInCode)))
    : undefined;
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  return { user: toAdminUser(row, (await userStorage(db, row.id)).bytes), signInCode };
}
