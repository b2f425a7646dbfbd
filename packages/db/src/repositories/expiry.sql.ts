import { sql, type Transaction } from 'kysely';
import type { TDb } from '../client';
import type { TDatabase } from '../schema';

/** A pool or an open transaction: repository functions run on either. */
export type TDbOrTrx = TDb | Transaction<TDatabase>;

/** Seconds in a day: TTLs are given in (possibly fractional) days. */
const DAY_SECONDS = 86_400;

/**
 * `now() + ttlDays` on the database's clock (fractional days allowed; 0 = already due).
 *
 * @throws RangeError for a `ttlDays` that is not a finite number >= 0.
 */
export function expiresIn(ttlDays: number) {
  if (!Number.isFinite(ttlDays) || ttlDays < 0) {
    throw new RangeError(`ttlDays must be a finite number >= 0, got ${ttlDays}`);
  }
  return sql<Date>`now() + make_interval(secs => ${ttlDays * DAY_SECONDS})`;
}
