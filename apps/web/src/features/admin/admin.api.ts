/**
 * Admin calls (docs/product.md#api-calls; docs/product.md#access-and-sessions), each with the
 * verified admin code in `x-access-code`, through the app's one API client. A 403 on any of them
 * means the stored code is no longer an admin code (deactivated, or the server was reset): the
 * screen locks.
 */
import {
  ZAccessCode,
  ZAdminAuditsSummary,
  ZAdminFeedback,
  ZAdminUser,
  ZAuditHistoryItem,
  ZCachedApp,
  ZClearCacheAnswer,
  ZGenerateCodeAnswer,
  ZStoreHealth,
  ZIssueSignInCodeAnswer,
  type TAccessCode,
  type TIssueSignInCodeAnswer,
} from '@aso/contracts';
import { queryOptions } from '@tanstack/react-query';
import {
  ApiError,
  apiFetch,
  apiFetchPage,
  arrayOf,
  type TApiFetchOptions,
  type TSchema,
} from '@/lib/api';
import { pagedQuery, type TPageReader } from '@/lib/pages';
import { toast } from '@/components/ui/use-toast';
import { clearAdminCode, getAdminCode } from './admin-session';

/** Texts of docs/product.md#error-catalogue ("Admin"). */
export const ADMIN_TEXTS = {
  deniedTitle: 'Access Denied',
  denied: 'Invalid admin code',
  verifyFailed: 'Failed to verify admin access',
} as const;

/** Topic of the toast a code that stopped working raises (closed once a code unlocks again). */
export const ADMIN_ACCESS_TOPIC = 'admin-access';

/** Query keys of the admin lists (all start with `'/api/admin'`, so one prefix invalidates all). */
export const adminKeys = {
  all: ['/api/admin'] as const,
  codes: ['/api/admin', 'codes'] as const,
  cache: ['/api/admin', 'cache'] as const,
  auditHistory: ['/api/admin', 'audit-history'] as const,
  feedbacks: ['/api/admin', 'feedbacks'] as const,
  audits: ['/api/admin', 'audits'] as const,
  storeHealth: ['/api/admin', 'store-health'] as const,
  users: ['/api/admin', 'users'] as const,
};

/** Runs `call` with the admin code's header; a 403 locks the screen (see the module comment). */
async function asAdmin<T>(
  code: string,
  call: (headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  try {
    return await call({ 'x-access-code': code });
  } catch (err) {
    if (err instanceof ApiError && err.status === 403 && getAdminCode() === code) {
      clearAdminCode();
      toast({
        variant: 'destructive',
        title: ADMIN_TEXTS.deniedTitle,
        description: ADMIN_TEXTS.denied,
        topic: ADMIN_ACCESS_TOPIC,
      });
    }
    throw err;
  }
}

function adminFetch<T>(code: string, path: string, options: TApiFetchOptions<T> = {}): Promise<T> {
  return asAdmin(code, (headers) =>
    apiFetch(path, { ...options, headers: { ...options.headers, ...headers } }),
  );
}

/** Reads the pages of an admin list (docs/product.md#lists-and-pages) with the admin code. */
function adminPages<T>(code: string, schema: TSchema<T>): TPageReader<T> {
  return (path, signal) =>
    asAdmin(code, (headers) => apiFetchPage(path, { signal, schema, headers }));
}

/**
 * Asks the server whether `code` is an admin code (`GET /api/check-access` with
 * `x-access-code`, docs/product.md#api-calls).
 *
 * @returns true for an admin code, false otherwise.
 * @throws {ApiError} when the call fails (e.g. 429 rate limited); a TypeError on network failure.
 */
export async function verifyAdminCode(code: string): Promise<boolean> {
  const answer = await apiFetch<unknown>('/api/check-access', {
    headers: { 'x-access-code': code },
  });
  return (
    typeof answer === 'object' &&
    answer !== null &&
    (answer as { isAdmin?: unknown }).isAdmin === true
  );
}

/** Active access codes, newest first, page by page. */
export function adminCodesQuery(code: string) {
  return pagedQuery(adminKeys.codes, '/api/admin/codes', adminPages(code, arrayOf(ZAccessCode)));
}

/** Apps with cached store snapshots, most recently read first, page by page. */
export function adminCacheQuery(code: string) {
  return pagedQuery(adminKeys.cache, '/api/admin/cache', adminPages(code, arrayOf(ZCachedApp)));
}

/** Audit history, newest first (the server's order), page by page. */
export function adminAuditHistoryQuery(code: string) {
  return pagedQuery(
    adminKeys.auditHistory,
    '/api/admin/audit-history',
    adminPages(code, arrayOf(ZAuditHistoryItem)),
  );
}

/** User feedback, newest first (the server's order), page by page. */
export function adminFeedbacksQuery(code: string) {
  return pagedQuery(
    adminKeys.feedbacks,
    '/api/admin/feedbacks',
    adminPages(code, arrayOf(ZAdminFeedback)),
  );
}

/** The store reader's health over the last 24 hours (reads per layout, fields found, failures). */
export function adminStoreHealthQuery(code: string) {
  return queryOptions({
    queryKey: adminKeys.storeHealth,
    queryFn: ({ signal }) =>
      adminFetch(code, '/api/admin/store-health', { signal, schema: ZStoreHealth }),
  });
}

/** The admin screen's counts (audits, apps, active codes, feedback) and the latest apps. */
export function adminAuditsSummaryQuery(code: string) {
  return queryOptions({
    queryKey: adminKeys.audits,
    queryFn: ({ signal }) =>
      adminFetch(code, '/api/admin/audits', { signal, schema: ZAdminAuditsSummary }),
  });
}

/**
 * Input of {@link generateAccessCode} (docs/product.md#validation-rules: maxUses >= 1; expiry days
 * optional, >= 1).
 */
export interface TGenerateInput {
  maxUses: number;
  expiresIn?: number;
}

/** `POST /api/admin/generate-code`: the new access code. */
export async function generateAccessCode(
  code: string,
  input: TGenerateInput,
): Promise<TAccessCode> {
  const body: TGenerateInput = { maxUses: input.maxUses };
  if (input.expiresIn !== undefined) body.expiresIn = input.expiresIn;
  const answer = await adminFetch(code, '/api/admin/generate-code', {
    method: 'POST',
    body,
    schema: ZGenerateCodeAnswer,
  });
  return answer.code;
}

/** `DELETE /api/admin/codes/{code}`: deactivates an access code (its sessions end too). */
export async function deactivateAccessCode(code: string, target: string): Promise<void> {
  await adminFetch(code, `/api/admin/codes/${encodeURIComponent(target)}`, { method: 'DELETE' });
}

/** `DELETE /api/admin/cache/app/{appId}`: the number of snapshots cleared. */
export async function clearAppCache(code: string, appId: string): Promise<number> {
  const answer = await adminFetch(code, `/api/admin/cache/app/${encodeURIComponent(appId)}`, {
    method: 'DELETE',
    schema: ZClearCacheAnswer,
  });
  return answer.cleared;
}

/** The users, newest first, page by page (the Users card). */
export function adminUsersQuery(code: string) {
  return pagedQuery(adminKeys.users, '/api/admin/users', adminPages(code, arrayOf(ZAdminUser)));
}

/**
 * `POST /api/admin/users/{id}/sign-in-code`: a new personal sign-in code for the user, shown
 * this once (the previous one stops working).
 */
export async function issueSignInCode(
  code: string,
  userId: string,
): Promise<TIssueSignInCodeAnswer> {
  return adminFetch(code, `/api/admin/users/${encodeURIComponent(userId)}/sign-in-code`, {
    method: 'POST',
    schema: ZIssueSignInCodeAnswer,
  });
}
