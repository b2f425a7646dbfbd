import { sql, type RawBuilder } from 'kysely';
import type { TDbOrTrx } from './expiry.sql';

/**
 * What a user stores, in bytes, for the per-user storage quota (docs/product.md#limits-and-constants):
 * their live uploads (the exports' bytes), their live datasets (the stored size of their row
 * chunks, as PostgreSQL keeps them: `pg_column_size`, after compression) and their rendered
 * PDFs. Expired uploads and datasets are left out: nobody can read them, and the hourly
 * cleanup deletes them. Every sum reads sizes only (`octet_length` and `pg_column_size` read a
 * stored value's header, never the value), through indexes leading with `user_id`.
 */

/** The stored bytes of the user whose id is `userId` (a value or a column reference), as SQL. */
export function storageBytesOf(userId: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(
    (select coalesce(sum(u.size_bytes), 0) from uploads u
      where u.user_id = ${userId} and u.expires_at > now())
    + (select coalesce(sum(pg_column_size(c.rows)), 0) from datasets d
        join dataset_chunks c on c.dataset_id = d.id
        where d.user_id = ${userId} and d.expires_at > now())
    + (select coalesce(sum(octet_length(p.pdf)), 0) from documents p where p.user_id = ${userId})
  )::bigint`;
}

/** A user's stored bytes and when the first of their stored exports expires. */
export interface TUserStorage {
  /** Bytes stored (uploads, datasets, PDFs). */
  bytes: number;
  /** The earliest expiry among their live uploads and datasets (null: none); PDFs do not expire. */
  firstExpiry: Date | null;
}

/** What user `userId` stores now (see the module comment). */
export async function userStorage(db: TDbOrTrx, userId: string): Promise<TUserStorage> {
  const { rows } = await sql<{ bytes: string; first_expiry: Date | null }>`
    select ${storageBytesOf(sql`${userId}::uuid`)} as bytes,
      least(
        (select min(expires_at) from uploads where user_id = ${userId}::uuid and expires_at > now()),
        (select min(expires_at) from datasets where user_id = ${userId}::uuid and expires_at > now())
      ) as first_expiry
  `.execute(db);
  const row = rows[0];
  return { bytes: Number(row?.bytes ?? 0), firstExpiry: row?.first_expiry ?? null };
}
