import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZText } from '@aso/contracts';
import {
  insertWithinLimit,
  isUuid,
  type TDbOrTrx,
  type TPage,
  type TPageKey,
  type TPageRequest,
  type TUserCollection,
} from '@aso/db';
import { AppError, badRequest } from './app-error';

/**
 * The one place where the gateway's limits on user-created collections are applied (this
 * product's rule: one account must not fill the database or the api's memory):
 * - count limits per user ({@link addWithinLimit}: 409 naming the limit and its setting),
 * - stored sizes ({@link assertMaxBytes}, {@link assertMaxChars}: 413 naming the field and
 *   the limit),
 * - pagination of every list ({@link pageQuery}, {@link pageRequest}, {@link sendPage}):
 *   `?limit=` (1 to `LIST_PAGE_MAX`, default `LIST_PAGE_DEFAULT`) and `?cursor=` (opaque, from
 *   the previous page's `Link: <...>; rel="next"` header, RFC 8288); the body stays what the
 *   list answered before (the array of items, or its object with `items`)
 *   (docs/product.md#lists-and-pages).
 */

/** The page settings of the api's env. */
export interface TPageSettings {
  LIST_PAGE_DEFAULT: number;
  LIST_PAGE_MAX: number;
}

/** The query of a paginated list: `{ limit?, cursor? }` as strings, checked strictly. */
export function pageQuery(settings: TPageSettings) {
  const max = settings.LIST_PAGE_MAX;
  return z.object({
    limit: ZText.regex(/^\d{1,6}$/, `limit must be a whole number from 1 to ${max}`)
      .transform(Number)
      .pipe(
        z
          .number()
          .min(1, `limit must be a whole number from 1 to ${max}`)
          .max(max, `limit must be at most ${max} (LIST_PAGE_MAX)`),
      )
      .optional(),
    cursor: ZText.max(CURSOR_MAX_CHARS, 'cursor is not one this server gave').optional(),
  });
}

/** Longest cursor this server gives: a time, a separator and a key of at most 400 bytes. */
const CURSOR_MAX_CHARS = 600;
export type TPageQuery = z.infer<ReturnType<typeof pageQuery>>;

const CURSOR_AT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/** The opaque `cursor` of a page key (base64url of `at|id`; `at` never holds a `|`). */
export function encodeCursor(key: TPageKey): string {
  return Buffer.from(`${key.at}|${key.id}`, 'utf8').toString('base64url');
}

/**
 * The page asked for by a checked {@link pageQuery}. `isKey` checks a cursor's tie-breaker:
 * a uuid for lists ordered by (`created_at`, `id`), else the list's own key (a term, an
 * `appId:storefront`).
 *
 * @throws AppError 400 for a cursor this server did not give.
 */
export function pageRequest(
  query: TPageQuery,
  settings: TPageSettings,
  isKey: (id: string) => boolean = isUuid,
): TPageRequest {
  const limit = query.limit ?? settings.LIST_PAGE_DEFAULT;
  if (query.cursor === undefined) return { limit, after: null };
  const text = Buffer.from(query.cursor, 'base64url').toString('utf8');
  const cut = text.indexOf('|');
  const at = cut === -1 ? '' : text.slice(0, cut);
  const id = cut === -1 ? '' : text.slice(cut + 1);
  if (!CURSOR_AT.test(at) || !isKey(id)) {
    throw badRequest('cursor is not one this server gave');
  }
  return { limit, after: { at, id } };
}

/**
 * True for the page most reads ask for (no cursor, default size): the only one a list cache
 * keeps, so a cache entry is never larger than one default page.
 */
export function isFirstPage(query: TPageQuery, settings: TPageSettings): boolean {
  return (
    query.cursor === undefined &&
    (query.limit ?? settings.LIST_PAGE_DEFAULT) === settings.LIST_PAGE_DEFAULT
  );
}

/**
 * The `Link` header value naming the next page of `req`'s list (its other query parameters
 * kept, `limit` and `cursor` set), or null on the last page.
 */
export function nextLink(req: FastifyRequest, page: TPage<unknown>, limit: number): string | null {
  if (!page.next) return null;
  const url = new URL(req.url, 'http://list.invalid');
  url.searchParams.set('limit', String(limit));
  url.searchParams.set('cursor', encodeCursor(page.next));
  return `<${url.pathname}${url.search}>; rel="next"`;
}

/**
 * Reads one page of a list for `req` (`query`: its checked `?limit=&cursor=`), sets the
 * `Link` header of the next page on `reply`, and answers the page's rows.
 *
 * @throws AppError 400 for a cursor this server did not give.
 */
export async function readPage<R>(
  req: FastifyRequest,
  reply: FastifyReply,
  query: TPageQuery,
  settings: TPageSettings,
  read: (page: TPageRequest) => Promise<TPage<R>>,
  isKey?: (id: string) => boolean,
): Promise<R[]> {
  const request = pageRequest(query, settings, isKey);
  const page = await read(request);
  void sendPage(reply, nextLink(req, page, request.limit));
  return page.rows;
}

/** Sets the `Link` header of a page answer (nothing on the last page); returns the reply. */
export function sendPage(reply: FastifyReply, link: string | null): FastifyReply {
  return link ? reply.header('link', link) : reply;
}

/**
 * Runs `insert` only while `userId` has fewer than `limit.max` rows in `limit.table`
 * (atomic: see `insertWithinLimit` of @aso/db).
 *
 * @throws AppError 409 'You have reached the limit of {max} {what} ({setting}) ...'.
 */
export async function addWithinLimit<R>(
  db: TDbOrTrx,
  userId: string,
  limit: { table: TUserCollection; max: number; what: string; setting: string },
  insert: (trx: TDbOrTrx) => Promise<R>,
): Promise<R> {
  const done = await insertWithinLimit(db, { table: limit.table, userId, max: limit.max }, insert);
  if (done.ok) return done.value;
  throw new AppError(
    'CONFLICT',
    `You have reached the limit of ${limit.max} ${limit.what} (${limit.setting}). Delete some to add more.`,
  );
}

/**
 * 413 unless the JSON of `value` takes at most `maxBytes` bytes (UTF-8).
 *
 * @throws AppError PAYLOAD_TOO_LARGE '{field} is {n} bytes; the limit is {max} ({setting})'.
 */
export function assertMaxBytes(
  field: string,
  value: unknown,
  maxBytes: number,
  setting: string,
): void {
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (bytes > maxBytes) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `${field} is ${bytes} bytes; the limit is ${maxBytes} bytes (${setting})`,
    );
  }
}

/**
 * 413 unless each of `fields` (name -> text; absent ones skipped) has at most `maxChars`
 * characters (UTF-16 code units, as JavaScript and the web app count them).
 *
 * @throws AppError PAYLOAD_TOO_LARGE '{field} is {n} characters; the limit is {max} ({setting})'.
 */
export function assertMaxChars(
  fields: Record<string, string | null | undefined>,
  maxChars: number,
  setting: string,
): void {
  for (const [field, value] of Object.entries(fields)) {
    if (value && value.length > maxChars) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `${field} is ${value.length} characters; the limit is ${maxChars} (${setting})`,
      );
    }
  }
}
