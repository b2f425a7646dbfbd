/**
 * Admin calls (spec section 7; DESIGN section 5), each with the verified admin code in
 * `x-access-code`, through the app's one API client. A 403 on any of them means the stored
 * code is no longer an admin code (deactivated, or the server was reset): the screen locks.
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
import { ApiError, apiFetch, arrayOf, type ApiFetchOptions } from '@/lib/api';
import { toast } from '@/components/ui/use-toast';
import { clearAdminCode, getAdminCode } from './admin-session';

/** Texts of spec section 8 ("Admin"). */
export const ADMIN_TEXTS = {
  deniedTitle: 'Access Denied',
  denied: 'Invalid admin code',
  verifyFailed: 'Failed to verify admin access',
} as const;

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

async function adminFetch<T>(
  code: string,
  path: string,
  options: ApiFetchOptions<T> = {},
): Promise<T> {
  try {
    return await apiFetch(path, {
      ...options,
      headers: { ...options.headers, 'x-access-code': code },
    });
  } catch (err) {
    if (err instanceof ApiError && err.status === 403 && getAdminCode() === code) {
      clearAdminCode();
      toast({
        variant: 'destructive',
        title: ADMIN_TEXTS.deniedTitle,
        description: ADMIN_TEXTS.denied,
      });
    }
    throw err;
  }
}

/**
 * Asks the server whether `code` is an admin code (`GET /api/check-access` with
 * `x-access-code`, spec section 7).
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

/** Active access codes, newest first. */
export function adminCodesQuery(code: string) {
  return queryOptions({
    queryKey: adminKeys.codes,
    queryFn: ({ signal }) =>
      adminFetch(code, '/api/admin/codes', { signal, schema: arrayOf(ZAccessCode) }),
  });
}

/** Apps with cached store snapshots. */
export function adminCacheQuery(code: string) {
  return queryOptions({
    queryKey: adminKeys.cache,
    queryFn: ({ signal }) =>
      adminFetch(code, '/api/admin/cache', { signal, schema: arrayOf(ZCachedApp) }),
  });
}

/** Audit history, sorted newest first here too (the table's promise, spec section 2). */
export function adminAuditHistoryQuery(code: string) {
  return queryOptions({
    queryKey: adminKeys.auditHistory,
    queryFn: async ({ signal }) => {
      const items = await adminFetch(code, '/api/admin/audit-history', {
        signal,
        schema: arrayOf(ZAuditHistoryItem),
      });
      return [...items].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    },
  });
}

/** User feedback, newest first. */
export function adminFeedbacksQuery(code: string) {
  return queryOptions({
    queryKey: adminKeys.feedbacks,
    queryFn: async ({ signal }) => {
      const items = await adminFetch(code, '/api/admin/feedbacks', {
        signal,
        schema: arrayOf(ZAdminFeedback),
      });
      return [...items].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    },
  });
}

/** The store reader's health over the last 24 hours (reads per layout, fields found, failures). */
export function adminStoreHealthQuery(code: string) {
  return queryOptions({
    queryKey: adminKeys.storeHealth,
    queryFn: ({ signal }) =>
      adminFetch(code, '/api/admin/store-health', { signal, schema: ZStoreHealth }),
  });
}

/** Audits summary (totals and apps). */
export function adminAuditsSummaryQuery(code: string) {
  return queryOptions({
    queryKey: adminKeys.audits,
    queryFn: ({ signal }) =>
      adminFetch(code, '/api/admin/audits', { signal, schema: ZAdminAuditsSummary }),
  });
}

/** Input of {@link generateAccessCode} (spec section 5: maxUses >= 1; expiry days optional, >= 1). */
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

/** Every user, newest first (the Users card). */
export function adminUsersQuery(code: string) {
  return queryOptions({
    queryKey: adminKeys.users,
    queryFn: ({ signal }) =>
      adminFetch(code, '/api/admin/users', { signal, schema: arrayOf(ZAdminUser) }),
  });
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
