import type { TAdminUser, TUser } from '@aso/contracts';
import type { TSessionIdentity, TUserRow } from '@aso/db';

/** The documented User (docs/product.md#entities) from a `users` row. */
export function toUser(row: Pick<TUserRow, 'id' | 'email' | 'created_at'>): TUser {
  return { id: row.id, email: row.email, createdAt: row.created_at.toISOString() };
}

/** The documented User behind a live session. */
export function identityUser(identity: TSessionIdentity): TUser {
  return {
    id: identity.userId,
    email: identity.email,
    createdAt: identity.userCreatedAt.toISOString(),
  };
}

/** A user as the admin's Users card shows it (contracts `ZAdminUser`), storing `storageBytes`. */
export function toAdminUser(row: TUserRow, storageBytes: number): TAdminUser {
  return {
    id: row.id,
    email: row.email,
    createdAt: row.created_at.toISOString(),
    lastSignInAt: row.last_sign_in_at ? row.last_sign_in_at.toISOString() : null,
    hasSignInCode: row.sign_in_code_hash !== null,
    storageBytes,
    lockouts: row.lockouts,
    lastLockoutAt: row.last_lockout_at ? row.last_lockout_at.toISOString() : null,
  };
}
