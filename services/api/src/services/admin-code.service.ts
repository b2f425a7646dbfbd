import type { FastifyBaseLogger } from 'fastify';
import { findAccessCode, insertAccessCode, listLiveAdminCodes, type TDb } from '@aso/db';
import { canonicalAccessCode, codeHash, sameSecret } from './credentials.service';

/** `max_uses` of the admin code created from `ADMIN_ACCESS_CODE` (it can also register users). */
export const ADMIN_CODE_MAX_USES = 100;

/** Longest admin code looked at; a longer header is refused without reading the table. */
const MAX_ADMIN_CODE_CHARS = 200;

/**
 * The live admin code (active, unexpired, `is_admin`) that `presented` denotes, or null
 * (also for anything longer than 200 characters). Admin codes are stored only as the SHA-256
 * of their canonical form; the presented code's hash is compared with every live one with
 * {@link sameSecret} (constant time, no early exit), so the answer time does not tell how much
 * of a guess was right (docs/product.md#access-and-sessions).
 */
export async function findAdminCode(db: TDb, presented: string): Promise<{ id: string } | null> {
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
  db: TDb,
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
