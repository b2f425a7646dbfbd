/**
 * TanStack Query factories, one per resource (STYLE "Web"). Keys are path segments, so the
 * generic reader of `./query-client.ts` and invalidation agree: `['/api/audit', id]` is
 * `GET /api/audit/<id>`. Mutations invalidate the keys they change:
 * - save / delete a saved audit -> {@link savedAuditsKey}
 * - save / delete a dashboard -> {@link dashboardsKey}
 * - feedback -> `['/api/feedback', auditId]`
 */
import { queryOptions } from '@tanstack/react-query';
import {
  ZAudit,
  ZCheckUserAnswer,
  ZSavedAudit,
  ZWebConfig,
  type TCheckUserAnswer,
} from '@aso/contracts';
import { apiFetch, arrayOf } from './api';
import { clearSessionToken } from './session';

/** Key of `GET /api/check-access` with the bearer token (the session check). */
export const checkAccessKey = ['/api/check-access'] as const;
/** Key of `GET /api/saved-audits`. */
export const savedAuditsKey = ['/api/saved-audits'] as const;
/** Key of `GET /api/dashboards`. */
export const dashboardsKey = ['/api/dashboards'] as const;
/** Key of `GET /api/audit/{id}`. */
export const auditKey = (id: string) => ['/api/audit', id] as const;
/** Key of the feedback list of one audit (invalidated after `POST /api/feedback`). */
export const feedbackKey = (auditId: string) => ['/api/feedback', auditId] as const;

const NOT_A_USER: TCheckUserAnswer = { isUser: false, user: null };

/**
 * The session check (spec section 4 "Session"). Runs only while `hasToken` is true and is never
 * retried. An answer saying the caller is not a user (or a 401) removes the stored token.
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

/** The signed-in user's saved audits. */
export const savedAuditsQuery = () =>
  queryOptions({
    queryKey: savedAuditsKey,
    queryFn: ({ signal }) =>
      apiFetch('/api/saved-audits', { schema: arrayOf(ZSavedAudit), signal }),
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
