/**
 * TanStack Query factories, one per resource (STYLE "Web"). Keys are path segments, so the
 * generic reader of `./query-client.ts` and invalidation agree: `['/api/audit', id]` is
 * `GET /api/audit/<id>`; paged lists (`./pages.ts`) and lookups live under their list's key,
 * so invalidating it reaches them all. Mutations invalidate the keys they change:
 * - save / delete a saved audit -> {@link savedAuditsKey}
 * - save / delete a dashboard -> {@link dashboardsKey}
 * - feedback -> `['/api/feedback', auditId]`
 */
import { queryOptions } from '@tanstack/react-query';
import {
  ZAudit,
  ZCheckUserAnswer,
  ZSavedAudit,
  ZShareList,
  ZWebConfig,
  type TCheckUserAnswer,
} from '@aso/contracts';
import { apiFetch, arrayOf } from './api';
import { pagedQuery } from './pages';
import { clearSessionToken } from './session';

/** Key of `GET /api/check-access` with the bearer token (the session check). */
export const checkAccessKey = ['/api/check-access'] as const;
/** Key of `GET /api/saved-audits`. */
export const savedAuditsKey = ['/api/saved-audits'] as const;
/** Key of `GET /api/dashboards`. */
export const dashboardsKey = ['/api/dashboards'] as const;
/** Key of `GET /api/audit/{id}`. */
export const auditKey = (id: string): readonly string[] => ['/api/audit', id];
/** Key of the feedback list of one audit (invalidated after `POST /api/feedback`). */
export const feedbackKey = (auditId: string) => ['/api/feedback', auditId] as const;

const NOT_A_USER: TCheckUserAnswer = { isUser: false, user: null };

/**
 * The session check (docs/product.md#states-and-transitions). Runs only while `hasToken` is true
 * and is never retried. An answer saying the caller is not a user (or a 401) removes the stored
 * token.
 */
export const checkAccessQuery = (hasToken: boolean) =>
  queryOptions({
    queryKey: checkAccessKey,
    queryFn: async ({ signal }) => {
      const answer =
        (await apiFetch('/api/check-access', {
          schema: ZCheckUserAnswer,
          signal,
          on401: 'null',
        })) ?? NOT_A_USER;
      if (!answer.isUser) clearSessionToken();
      return answer;
    },
    enabled: hasToken,
    retry: false,
  });

/** One audit as `GET /api/audit/{id}` answers it. A 404 (unknown or foreign id) throws ApiError. */
export const auditQuery = (id: string) =>
  queryOptions({
    queryKey: auditKey(id),
    queryFn: ({ signal }) =>
      apiFetch(`/api/audit/${encodeURIComponent(id)}`, { schema: ZAudit, signal }),
  });

/** Key of `GET /api/shared/{token}`: an audit opened through a share link. */
const sharedAuditKey = (token: string): readonly string[] => ['/api/shared', token];

/** The audit of a share link, read without a session; a 404 (revoked, expired) throws ApiError. */
export const sharedAuditQuery = (token: string) =>
  queryOptions({
    queryKey: sharedAuditKey(token),
    queryFn: ({ signal }) =>
      apiFetch(`/api/shared/${encodeURIComponent(token)}`, { schema: ZAudit, signal }),
  });

/** Key of `GET /api/shares` (invalidated after creating or revoking a link). */
export const shareLinksKey = ['/api/shares'] as const;

/**
 * The signed-in user's live share links to audit `auditId`, newest first, page by page; each
 * page also says how many links the user holds in all and may hold.
 */
export const shareLinksQuery = (auditId: string) =>
  pagedQuery(
    [...shareLinksKey, auditId],
    `/api/shares?auditId=${encodeURIComponent(auditId)}`,
    ZShareList,
  );

/** The signed-in user's saved audits, newest first, page by page (the sidebar). */
export const savedAuditsQuery = () =>
  pagedQuery([...savedAuditsKey, 'pages'], '/api/saved-audits', arrayOf(ZSavedAudit));

/** The signed-in user's saved entry of audit `auditId`, or null when it is not saved. */
export const savedAuditOfQuery = (auditId: string) =>
  queryOptions({
    queryKey: [...savedAuditsKey, 'of', auditId],
    queryFn: async ({ signal }) =>
      (
        await apiFetch(`/api/saved-audits?auditId=${encodeURIComponent(auditId)}`, {
          schema: arrayOf(ZSavedAudit),
          signal,
        })
      )[0] ?? null,
  });

/** Key of `GET /api/web-config`. */
export const webConfigKey = ['/api/web-config'] as const;

/**
 * The run-time settings of the web app (the consulting link). Read once per page load; a
 * failed read counts as "nothing configured", so the link and promo stay hidden.
 */
export const webConfigQuery = () =>
  queryOptions({
    queryKey: webConfigKey,
    queryFn: async ({ signal }) => {
      try {
        return await apiFetch('/api/web-config', { schema: ZWebConfig, signal });
      } catch {
        return { consultingUrl: null };
      }
    },
  });
