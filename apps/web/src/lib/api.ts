/**
 * The web app's one API client (docs/product.md#roles-and-permissions, #api-calls and
 * #error-catalogue, docs/product.md#access-and-sessions and #error-answers). Every call:
 * - carries `Authorization: Bearer <localStorage.sessionToken>` when a token is stored,
 * - is sent with `credentials: 'include'`,
 * - sends and parses JSON (a `FormData` body is sent as multipart, for uploads),
 * - turns a non-2xx answer into an {@link ApiError} (`@aso/api-client/error`, shared with the CLI)
 *   whose message is `"<status>: <body text>"` (or the status text when the body is empty;
 *   docs/product.md#error-catalogue),
 * - optionally validates the answer with a `@aso/contracts` schema.
 *
 * Query factories per resource live in `./queries.ts`; TanStack Query defaults in
 * `./query-client.ts`.
 */
import { ApiError } from '@aso/api-client/error';
import { nextPageFromLink } from '@aso/contracts';
import { getSessionToken } from './session';

export { ApiError };

/** Anything with zod's `parse` (every `@aso/contracts` schema qualifies). */
export interface TSchema<T> {
  parse(data: unknown): T;
}

/** HTTP methods the API uses. */
export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Options of {@link apiFetch}. */
export interface TApiFetchOptions<T> {
  /** Default 'GET'. */
  method?: THttpMethod;
  /** JSON-serialised unless it is a `FormData` (then sent as multipart, no content type set). */
  body?: unknown;
  /** Validates the parsed answer; a mismatch throws the schema's error. */
  schema?: TSchema<T>;
  /** Extra headers, e.g. `x-access-code` for admin calls. */
  headers?: Record<string, string>;
  /** Aborts the call (TanStack Query passes one to query functions). */
  signal?: AbortSignal;
  /**
   * Gives up after this many ms with a `TimeoutError` DOMException. Default 30 000; uploads
   * that wait for the merge should pass more (the gateway waits up to 60 s).
   */
  timeoutMs?: number;
  /**
   * 'null' makes a 401 answer resolve to `null` instead of throwing (docs/product.md#api-calls
   * notes).
   */
  on401?: 'throw' | 'null';
}

/** Default per-call timeout (ms). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Headers every authenticated call carries (also used by the SSE client). */
export function authHeaders(): Record<string, string> {
  const token = getSessionToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * Calls the API at `path` (e.g. `/api/saved-audits`) and resolves with the parsed JSON answer
 * (validated by `schema` when given); an empty answer (204) resolves to `undefined`.
 *
 * @throws {ApiError} on a non-2xx answer (except a 401 with `on401: 'null'`, which resolves null).
 * @throws {TypeError} on a network failure (fetch's own error).
 * @throws {DOMException} `TimeoutError` after `timeoutMs`, `AbortError` when `signal` aborts.
 */
export async function apiFetch<T = unknown>(
  path: string,
  options: TApiFetchOptions<T> = {},
): Promise<T> {
  return (await request(path, options)).data;
}

/**
 * One page of a list (docs/product.md#lists-and-pages): the answer and the address of the next
 * page, from the `Link` header (null on the last page).
 */
export interface TPage<T> {
  data: T;
  next: string | null;
}

/**
 * Calls the list at `path` (its first page, or a page's `next`) as {@link apiFetch} does, and
 * answers the page with the address of the next one.
 *
 * @throws as {@link apiFetch}.
 */
export function apiFetchPage<T>(
  path: string,
  options: TApiFetchOptions<T> = {},
): Promise<TPage<T>> {
  return request(path, options);
}

async function request<T>(path: string, options: TApiFetchOptions<T>): Promise<TPage<T>> {
  const {
    method = 'GET',
    body,
    schema,
    signal,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    on401 = 'throw',
  } = options;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...authHeaders(),
    ...options.headers,
  };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  const res = await fetch(path, {
    method,
    headers,
    body: payload,
    credentials: 'include',
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (res.status === 401 && on401 === 'null') return { data: null as T, next: null };
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
  const next = nextPageFromLink(res.headers.get('link'));
  if (text === '') return { data: undefined as T, next };
  const data: unknown = JSON.parse(text);
  return { data: schema ? schema.parse(data) : (data as T), next };
}

/**
 * The server's message of a failed call, for toasts that show "the server message or <fallback>"
 * (docs/product.md#error-catalogue): the `message` of an `{ message, code }` body, else the raw
 * body text, else `fallback` (also for network errors and anything that is not an ApiError).
 */
export function serverMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.body?.message.trim() || err.bodyText.trim() || fallback;
  return fallback;
}

/** A schema for a JSON array whose items each pass `item` (contracts export item schemas). */
export function arrayOf<T>(item: TSchema<T>): TSchema<T[]> {
  return {
    parse(data: unknown): T[] {
      if (!Array.isArray(data)) throw new TypeError('expected a JSON array');
      return data.map((entry) => item.parse(entry));
    },
  };
}
