import type { TAccessCode } from '@aso/contracts';
import {
  deactivateAccessCode,
  findAccessCode,
  findAccessCodeById,
  insertAccessCode,
  isUuid,
  listActiveAccessCodes,
  type TAccessCodeRow,
  type TDb,
  type TPage,
  type TPageRequest,
} from '@aso/db';
import { AppError } from '../lib/app-error';
import { canonicalAccessCode, codeHash, generateAccessCode } from './credentials.service';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How many times code generation retries after hitting an existing code (80 bits: never, in practice). */
const GENERATE_ATTEMPTS = 3;

/** An access code as admins see it (contracts `ZAccessCode`). */
export function toAccessCodeDto(row: TAccessCodeRow): TAccessCode {
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

/**
 * Creates a normal (non-admin) access code: `maxUses` >= 1, optional `expiresInDays` >= 1
 * (absent: never expires). The code comes from the CSPRNG (80 bits, grouped Crockford
 * base32).
 *
 * @throws Error when GENERATE_ATTEMPTS random codes all already exist (not expected).
 */
export async function createAccessCode(
  db: TDb,
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

/** One page of the active access codes (admin ones included), newest first, as admins see them. */
export async function activeAccessCodes(db: TDb, page: TPageRequest): Promise<TPage<TAccessCode>> {
  const listed = await listActiveAccessCodes(db, page);
  return { rows: listed.rows.map(toAccessCodeDto), next: listed.next };
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
  db: TDb,
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
