/**
 * Calls of tracked keywords (docs/product.md#keywords) as TanStack Query factories and
 * mutations' functions, through the app's one API client. Every key starts with
 * {@link KEYWORDS_KEY}, so tracking, removing or refreshing terms invalidates the list, the gap
 * and the audit's ranks with one call.
 */
import {
  ZAuditKeywordRanks,
  ZKeywordGap,
  ZKeywordList,
  ZKeywordRanks,
  ZKeywordRefreshAnswer,
  ZKeywordResearch,
  ZKeywordResearchQueued,
  type TKeywordItem,
  type TKeywordRefreshAnswer,
} from '@aso/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '@/lib/api';

/** Prefix of every keyword key. */
export const KEYWORDS_KEY = ['/api/keywords'] as const;
/** Key of `GET /api/keywords?appId=&storefront=`. */
export const keywordListKey = (appId: string, storefront: string) =>
  [...KEYWORDS_KEY, 'list', appId, storefront] as const;
/** Key of `GET /api/keywords/gap?appId=&storefront=`. */
export const keywordGapKey = (appId: string, storefront: string) =>
  [...KEYWORDS_KEY, 'gap', appId, storefront] as const;

const query = (params: Record<string, string | undefined>) =>
  new URLSearchParams(
    Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();

/**
 * The user's tracked terms of an app in a storefront, with ranks, competitors and estimates.
 * `refetchInterval` is the screen's (it polls while reads are queued).
 */
export function keywordListQuery(
  appId: string,
  storefront: string,
  refetchInterval: number | false | ((data: TKeywordItem[] | undefined) => number | false) = false,
) {
  return queryOptions({
    queryKey: keywordListKey(appId, storefront),
    queryFn: async ({ signal }) =>
      (
        await apiFetch(`/api/keywords?${query({ appId, storefront })}`, {
          signal,
          schema: ZKeywordList,
        })
      ).items,
    refetchInterval:
      typeof refetchInterval === 'function'
        ? (q) => refetchInterval(q.state.data)
        : refetchInterval,
  });
}

/** Terms x (the app + watched competitors) of an app in a storefront. */
export function keywordGapQuery(appId: string, storefront: string) {
  return queryOptions({
    queryKey: keywordGapKey(appId, storefront),
    queryFn: ({ signal }) =>
      apiFetch(`/api/keywords/gap?${query({ appId, storefront })}`, {
        signal,
        schema: ZKeywordGap,
      }),
  });
}

/**
 * The rank history of every term the user tracks for an app in a storefront over [`from`,
 * `to`] (ISO 8601), for the timeline's time axis.
 */
export function keywordRanksQuery(appId: string, storefront: string, from: string, to: string) {
  return queryOptions({
    queryKey: [...KEYWORDS_KEY, 'ranks', appId, storefront, from, to] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/apps/${encodeURIComponent(appId)}/keyword-ranks?${query({ storefront, from, to })}`,
        { signal, schema: ZKeywordRanks },
      ),
  });
}

/** How often an audit's keyword ranks are read again while a tracked term waits for a read (ms). */
export const AUDIT_RANKS_POLL_MS = 3_000;

/**
 * The ranks of an audit's keywords for its app and competitors; read again every
 * {@link AUDIT_RANKS_POLL_MS} while a term the user tracks has no read yet.
 */
export function auditKeywordRanksQuery(auditId: string) {
  return queryOptions({
    queryKey: [...KEYWORDS_KEY, 'audit', auditId] as const,
    queryFn: ({ signal }) =>
      apiFetch(`/api/audit/${encodeURIComponent(auditId)}/keyword-ranks`, {
        signal,
        schema: ZAuditKeywordRanks,
      }),
    refetchInterval: (q) =>
      q.state.data?.terms.some((t) => t.trackId !== null && t.checkedAt === null)
        ? AUDIT_RANKS_POLL_MS
        : false,
  });
}

/** A research answer, or the 202 of a term whose first read was just queued. */
const ZResearchAnswer = z.union([ZKeywordResearchQueued, ZKeywordResearch]);

/** How often a queued research is asked again (ms): 20 a minute, under its 30 a minute limit. */
export const RESEARCH_POLL_MS = 3_000;
/** How long a queued research is asked again before the screen offers to try later (ms). */
export const RESEARCH_POLL_MAX_MS = 3 * 60_000;

/**
 * Research of `term` in `storefront` (for app `appId`: its competitors and keyword field feed
 * the suggestions). While the answer is the 202 `{queued}` it is asked again every
 * {@link RESEARCH_POLL_MS} until `pollUntil` (epoch ms; the screen sets it
 * {@link RESEARCH_POLL_MAX_MS} after the term is asked for).
 */
export function keywordResearchQuery(
  term: string,
  storefront: string,
  appId: string | undefined,
  pollUntil: number,
) {
  return queryOptions({
    queryKey: [...KEYWORDS_KEY, 'research', storefront, appId ?? '', term] as const,
    queryFn: ({ signal }) =>
      apiFetch(`/api/keywords/research?${query({ term, storefront, appId })}`, {
        signal,
        schema: ZResearchAnswer,
      }),
    enabled: term.trim() !== '',
    refetchInterval: (q) =>
      q.state.data && 'queued' in q.state.data && Date.now() < pollUntil ? RESEARCH_POLL_MS : false,
  });
}

/**
 * `POST /api/keywords`: tracks `terms` for the app of `appStoreUrl` in its storefront and
 * resolves with every tracked term of that app there.
 * @throws {ApiError} 400 naming a bad term or URL; 409 past the per-app limit.
 */
export async function trackKeywords(appStoreUrl: string, terms: string[]): Promise<TKeywordItem[]> {
  const answer = await apiFetch('/api/keywords', {
    method: 'POST',
    body: { appStoreUrl, terms },
    schema: ZKeywordList,
  });
  return answer.items;
}

/** `DELETE /api/keywords/{id}`: stops tracking one term. */
export async function untrackKeyword(id: string): Promise<void> {
  await apiFetch(`/api/keywords/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/**
 * `POST /api/keywords/refresh`: reads every tracked term of the app in the storefront now,
 * under the search rate limit (202: how many, and when they can be done at the earliest).
 * @throws {ApiError} 404 when no term is tracked; 429 past the per-user refresh limit.
 */
export function refreshKeywords(appId: string, storefront: string): Promise<TKeywordRefreshAnswer> {
  return apiFetch('/api/keywords/refresh', {
    method: 'POST',
    body: { appId, storefront },
    schema: ZKeywordRefreshAnswer,
  });
}

/** The App Store URL of an app in a storefront (what `POST /api/keywords` takes). */
export function appStoreUrlOf(appId: string, storefront: string): string {
  return `https://apps.apple.com/${storefront}/app/id${appId}`;
}
