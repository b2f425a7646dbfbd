import { sql } from 'kysely';
import type { TDb } from '../client';
import type { TAuditRow, TFeedbackRow, TSavedAuditRow } from '../schema';
import type { TDbOrTrx } from './expiry.sql';
import { afterKey, pageAt, toPage, type TPage, type TPageRequest } from './page.sql';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True when `id` has the shape of a UUID. Ids from URLs are checked first so a malformed one
 * reads as "not found" instead of a PostgreSQL cast error.
 */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** What {@link insertAudit} stores. `inputs` is the validated request (contracts `TAuditInputs`). */
export interface TNewAuditInput {
  userId: string;
  accessCodeId: string | null;
  appId: string;
  storefront: string;
  appStoreUrl: string;
  inputs: Record<string, unknown>;
}

/** Inserts an audit with status `queued` and returns the row. */
export async function insertAudit(db: TDb, input: TNewAuditInput): Promise<TAuditRow> {
  return db
    .insertInto('audits')
    .values({
      user_id: input.userId,
      access_code_id: input.accessCodeId,
      app_id: input.appId,
      storefront: input.storefront,
      app_store_url: input.appStoreUrl,
      inputs: JSON.stringify(input.inputs),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The audit with `id`, or null (also for an id that is not a UUID). */
export async function findAudit(db: TDb, id: string): Promise<TAuditRow | null> {
  if (!isUuid(id)) return null;
  return (
    (await db.selectFrom('audits').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
  );
}

/** The audit with `id` when `userId` owns it, else null (never tells the two apart). */
export async function findOwnedAudit(
  db: TDb,
  id: string,
  userId: string,
): Promise<TAuditRow | null> {
  if (!isUuid(id)) return null;
  return (
    (await db
      .selectFrom('audits')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Ids of audits still `queued` or `running` that were created more than `olderThanMs` ms ago
 * (PostgreSQL's clock), oldest first, at most `limit`: candidates for the analyzer's sweep of
 * audits whose job ended without finishing them.
 * @throws RangeError for a negative `olderThanMs` or a `limit` below 1.
 */
export async function findUnfinishedAuditIds(
  db: TDb,
  olderThanMs: number,
  limit: number,
): Promise<string[]> {
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0)
    throw new RangeError(`olderThanMs must be a number >= 0, got ${olderThanMs}`);
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a whole number >= 1, got ${limit}`);
  const rows = await db
    .selectFrom('audits')
    .select('id')
    .where('status', 'in', ['queued', 'running'])
    .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** An unfinished audit as {@link findUnfinishedAudits} returns it. */
export interface TUnfinishedAudit {
  id: string;
  /** The validated request it was started with (contracts `TAuditInputs`). */
  inputs: unknown;
}

/**
 * Audits still `queued` or `running` created between `maxAgeMs` and `minAgeMs` ms ago
 * (PostgreSQL's clock), oldest first, at most `limit`: candidates for re-enqueueing when
 * their jobs were lost (a Redis that came back empty).
 * @throws RangeError unless 0 <= minAgeMs <= maxAgeMs and limit >= 1.
 */
export async function findUnfinishedAudits(
  db: TDb,
  opts: { minAgeMs: number; maxAgeMs: number; limit: number },
): Promise<TUnfinishedAudit[]> {
  const { minAgeMs, maxAgeMs, limit } = opts;
  if (!(minAgeMs >= 0 && maxAgeMs >= minAgeMs))
    throw new RangeError(`expected 0 <= minAgeMs <= maxAgeMs, got ${minAgeMs} and ${maxAgeMs}`);
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a whole number >= 1, got ${limit}`);
  return db
    .selectFrom('audits')
    .select(['id', 'inputs'])
    .where('status', 'in', ['queued', 'running'])
    .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${minAgeMs / 1000})`)
    .where('created_at', '>=', sql<Date>`now() - make_interval(secs => ${maxAgeMs / 1000})`)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Moves a `queued` audit to `running` (sets `started_at`). Returns true when it changed. */
export async function markAuditRunning(db: TDb, id: string): Promise<boolean> {
  const res = await db
    .updateTable('audits')
    .set({ status: 'running', started_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** The finished result written by {@link finalizeAudit}. */
export interface TAuditResultInput {
  result: Record<string, unknown>;
  appName: string;
  provider: string;
  /** Rules catalogue version that scored it. */
  rulesVersion?: string | null;
  /** Tokens of its model calls (null for the heuristic provider). */
  usage?: { promptTokens: number; completionTokens: number; calls: number } | null;
}

/**
 * Writes the result and status `done`, once: the UPDATE only matches an audit that is still
 * `queued` or `running`, so a retried or duplicated finalize changes nothing and returns false.
 * Returns true for the one call that wrote.
 */
export async function finalizeAudit(
  db: TDb,
  id: string,
  input: TAuditResultInput,
): Promise<boolean> {
  const res = await db
    .updateTable('audits')
    .set({
      status: 'done',
      result: JSON.stringify(input.result),
      app_name: input.appName,
      provider: input.provider,
      rules_version: input.rulesVersion ?? null,
      prompt_tokens: input.usage?.promptTokens ?? null,
      completion_tokens: input.usage?.completionTokens ?? null,
      model_calls: input.usage?.calls ?? null,
      error: null,
      completed_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * Marks an unfinished audit `failed` with a user-facing `message`. Returns true for the one
 * call that changed it (false when it was already done or failed), so the caller emits the
 * `error` event exactly once.
 */
export async function failAudit(db: TDb, id: string, message: string): Promise<boolean> {
  const res = await db
    .updateTable('audits')
    .set({ status: 'failed', error: message, completed_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Inserts a saved audit for `userId`. */
export async function insertSavedAudit(
  db: TDbOrTrx,
  input: { userId: string; auditId: string; name: string; storefront: string },
): Promise<{ row: TSavedAuditRow; created: boolean }> {
  const inserted = await db
    .insertInto('saved_audits')
    .values({
      user_id: input.userId,
      audit_id: input.auditId,
      name: input.name,
      storefront: input.storefront,
    })
    // One saved audit per user and audit (migration 0007): a second save keeps the first.
    .onConflict((oc) => oc.columns(['user_id', 'audit_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { row: inserted, created: true };
  const existing = await db
    .selectFrom('saved_audits')
    .selectAll()
    .where('user_id', '=', input.userId)
    .where('audit_id', '=', input.auditId)
    .executeTakeFirstOrThrow();
  return { row: existing, created: false };
}

/** One page of the user's saved audits, newest first. */
export async function listSavedAudits(
  db: TDb,
  userId: string,
  page: TPageRequest,
): Promise<TPage<TSavedAuditRow>> {
  const rows = await db
    .selectFrom('saved_audits')
    .selectAll()
    .select(pageAt('saved_audits'))
    .where('user_id', '=', userId)
    .where(afterKey('saved_audits', page.after, 'desc'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit);
}

/** The user's saved audit of `auditId`, or undefined. */
export async function findSavedAuditOf(
  db: TDbOrTrx,
  userId: string,
  auditId: string,
): Promise<TSavedAuditRow | undefined> {
  return db
    .selectFrom('saved_audits')
    .selectAll()
    .where('user_id', '=', userId)
    .where('audit_id', '=', auditId)
    .executeTakeFirst();
}

/** Deletes the user's saved audit `id`. Returns false when it does not exist or is someone else's. */
export async function deleteSavedAudit(db: TDb, id: string, userId: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const res = await db
    .deleteFrom('saved_audits')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** Inserts feedback about an audit. */
export async function insertFeedback(
  db: TDbOrTrx,
  input: { auditId: string; userId: string; feedback: string },
): Promise<TFeedbackRow> {
  return db
    .insertInto('feedback')
    .values({ audit_id: input.auditId, user_id: input.userId, feedback: input.feedback })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One page of the feedback about one audit, oldest first. */
export async function listAuditFeedback(
  db: TDb,
  auditId: string,
  page: TPageRequest,
): Promise<TPage<TFeedbackRow>> {
  if (!isUuid(auditId)) return { rows: [], next: null };
  const rows = await db
    .selectFrom('feedback')
    .selectAll()
    .select(pageAt('feedback'))
    .where('audit_id', '=', auditId)
    .where(afterKey('feedback', page.after, 'asc'))
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit);
}
