import { z } from 'zod';
import { URL_BOUND_CHARS, ZAppId, ZIsoDateTime, ZStorefront, ZText, ZUuid } from './common';

/**
 * Keyword intelligence: the terms a user tracks for an app in a storefront, where the app
 * ranks for each in the store's search, research of a term and the gap against competitors.
 */

/** Tracked terms per app and storefront a user may have by default (`KEYWORDS_MAX_PER_APP`). */
export const KEYWORDS_MAX_PER_APP_DEFAULT = 100;
/** Tracked terms a user may have in all by default (`KEYWORDS_MAX_PER_USER`). */
export const KEYWORDS_MAX_PER_USER_DEFAULT = 300;

/** Longest tracked term, characters after normalisation (this product's rule: a search box phrase). */
export const KEYWORD_TERM_MAX = 100;

/**
 * Deepest position a rank read sees: the iTunes Search API answers at most 200 results
 * (`limit`, 1-200; https://performance-partners.apple.com/search-api).
 */
export const KEYWORD_RANK_DEPTH = 200;

/** Where an order of results came from: the iTunes Search API (the only source read today). */
export const ZRankSource = z.enum(['itunes-search']);
export type TRankSource = z.infer<typeof ZRankSource>;

/**
 * The language whose case rules fold a term typed for storefront `storefront` (BCP 47). Only
 * Turkish, Azerbaijani and Lithuanian lower-case differently from the root locale
 * (`'I'.toLocaleLowerCase('tr')` is 'ı'; https://unicode.org/reports/tr21/ SpecialCasing);
 * every other storefront folds with the root rules.
 */
export function storefrontCaseLocale(storefront: string): string {
  const cc = storefront.toLowerCase();
  if (cc === 'tr') return 'tr';
  if (cc === 'az') return 'az';
  if (cc === 'lt') return 'lt';
  return 'en';
}

/**
 * A search term as it is tracked and asked for: Unicode NFC, trimmed, inner runs of white
 * space made one space, lower-cased with the storefront's case rules
 * (`toLocaleLowerCase(storefrontCaseLocale(storefront))`), so "Focus  Timer" and "focus timer"
 * are one term and Turkish "İstanbul" is "istanbul". The store's own search ignores case.
 */
export function normalizeTerm(term: string, storefront: string): string {
  return term
    .normalize('NFC')
    .trim()
    .replace(/\s+/gu, ' ')
    .toLocaleLowerCase(storefrontCaseLocale(storefront));
}

/**
 * Why `term` (already normalised) cannot be tracked, or null when it can: empty, longer than
 * {@link KEYWORD_TERM_MAX}, or holding a control character.
 */
export function termProblem(term: string): string | null {
  if (term.length === 0) return 'is empty';
  if ([...term].length > KEYWORD_TERM_MAX) return `is longer than ${KEYWORD_TERM_MAX} characters`;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/u.test(term)) return 'holds a control character';
  return null;
}

/**
 * Splits a pasted list of terms on commas and new lines (what the Keywords screen's paste box
 * and the CLI accept), dropping blank entries.
 */
export function splitTermList(text: string): string[] {
  return text
    .split(/[,\n\r]+/u)
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
}

/** Body of `POST /api/keywords`: the app's App Store URL (its storefront) and the terms. */
export const ZKeywordTrackBody = z.object({
  appStoreUrl: ZText.max(URL_BOUND_CHARS, 'appStoreUrl is too long'),
  terms: z
    .array(ZText.max(1000, 'a term is too long'))
    .min(1, 'terms: give at least one term')
    .max(KEYWORDS_MAX_PER_APP_DEFAULT * 5, 'terms: too many terms in one request'),
});
export type TKeywordTrackBody = z.infer<typeof ZKeywordTrackBody>;

/** A competitor's rank for a term in the same read as the app's. */
export const ZKeywordCompetitorRank = z.object({
  appId: z.string(),
  appName: z.string().nullable(),
  /** 1-based position, null when not in the first 200 results (or never read). */
  rank: z.number().int().min(1).max(KEYWORD_RANK_DEPTH).nullable(),
});
export type TKeywordCompetitorRank = z.infer<typeof ZKeywordCompetitorRank>;

/** An estimate (popularity 1-100, difficulty 0-100) with the signals it was made from. */
export const ZKeywordSignal = z.object({
  name: z.string(),
  /** The signal's own score, 0-100. */
  value: z.number(),
  /** Its share of the estimate, ratio 0-1 (the weights of an estimate sum to 1). */
  weight: z.number(),
});
export type TKeywordSignal = z.infer<typeof ZKeywordSignal>;

export const ZKeywordEstimate = z.object({
  value: z.number().int(),
  label: z.literal('estimate'),
  signals: z.array(ZKeywordSignal),
});
export type TKeywordEstimate = z.infer<typeof ZKeywordEstimate>;

/**
 * One tracked term of a user's app. `rank` is the 1-based position of the app among the
 * store's results (1..200), null when it is not in the first 200 or the term was never read
 * (`checkedAt` null then); `previousRank` the rank of the read before; `bestRank` the best
 * rank ever recorded; `change7d` the rank 7 days ago minus now (positive: moved up; null when
 * either is unknown); `source` where the order came from; `lastError` why the last read failed
 * after its retries (null when it succeeded); `nextReadAt` when the term is next due.
 */
export const ZKeywordItem = z.object({
  id: ZUuid,
  term: z.string(),
  appId: z.string(),
  storefront: z.string(),
  rank: z.number().int().min(1).max(KEYWORD_RANK_DEPTH).nullable(),
  previousRank: z.number().int().nullable(),
  bestRank: z.number().int().nullable(),
  change7d: z.number().int().nullable(),
  checkedAt: ZIsoDateTime.nullable(),
  nextReadAt: ZIsoDateTime.nullable(),
  resultCount: z.number().int().nullable(),
  source: ZRankSource.nullable(),
  lastError: z.string().nullable(),
  /** The store throttled the last read; the next try is at this time (null otherwise). */
  throttledUntil: ZIsoDateTime.nullable(),
  competitors: z.array(ZKeywordCompetitorRank),
  popularity: ZKeywordEstimate.nullable(),
  difficulty: ZKeywordEstimate.nullable(),
  /** Ranks of the last 30 reads, oldest first (the screen's sparkline). */
  recent: z.array(z.object({ checkedAt: ZIsoDateTime, rank: z.number().int().nullable() })),
  createdAt: ZIsoDateTime,
});
export type TKeywordItem = z.infer<typeof ZKeywordItem>;

/** Answer of `POST /api/keywords` (201) and `GET /api/keywords`. */
export const ZKeywordList = z.object({ items: z.array(ZKeywordItem) });
export type TKeywordList = z.infer<typeof ZKeywordList>;

/** Query of `GET /api/keywords` and `GET /api/keywords/gap`. */
export const ZKeywordListQuery = z.object({ appId: ZAppId, storefront: ZStorefront });
export type TKeywordListQuery = z.infer<typeof ZKeywordListQuery>;

/** Path parameters of `/api/keywords/{id}`. */
export const ZKeywordParams = z.object({ id: ZUuid });

/** Body of `POST /api/keywords/refresh`: read the app's tracked terms in the storefront now. */
export const ZKeywordRefreshBody = z.object({ appId: ZAppId, storefront: ZStorefront });

/** Answer of `POST /api/keywords/refresh` (202): reads queued under the search rate limit. */
export const ZKeywordRefreshAnswer = z.object({
  queued: z.number().int(),
  /** When the last of them can run at the earliest under the rate limit (estimate). */
  expectedBy: ZIsoDateTime,
});
export type TKeywordRefreshAnswer = z.infer<typeof ZKeywordRefreshAnswer>;

/** Answer of `GET /api/keywords/{id}/history`: every recorded rank, oldest first. */
export const ZKeywordHistory = z.object({
  points: z.array(
    z.object({
      checkedAt: ZIsoDateTime,
      rank: z.number().int().nullable(),
      source: ZRankSource,
    }),
  ),
});
export type TKeywordHistory = z.infer<typeof ZKeywordHistory>;

/** How a result's title holds the term: all of it as typed, every word, some words, none. */
export const ZTitleMatch = z.enum(['exact', 'broad', 'partial', 'none']);
export type TTitleMatch = z.infer<typeof ZTitleMatch>;

/** One of the top results of a term, as research shows it. */
export const ZResearchApp = z.object({
  appId: z.string(),
  appName: z.string(),
  developer: z.string().nullable(),
  iconUrl: z.string().nullable(),
  rating: z.number().nullable(),
  ratingCount: z.number().int().nullable(),
  releasedAt: ZIsoDateTime.nullable(),
  updatedAt: ZIsoDateTime.nullable(),
  titleMatch: ZTitleMatch,
});
export type TResearchApp = z.infer<typeof ZResearchApp>;

/** Where a suggested term came from. */
export const ZSuggestionSource = z.enum(['search-hints', 'competitor-title', 'keyword-field']);
export type TSuggestionSource = z.infer<typeof ZSuggestionSource>;

/** Query of `GET /api/keywords/research`. */
export const ZKeywordResearchQuery = z.object({
  term: ZText.max(1000, 'term is too long'),
  storefront: ZStorefront,
  /** The app the research is for (its competitors and keyword field feed the suggestions). */
  appId: ZAppId.optional(),
});

/** Answer of `GET /api/keywords/research`. */
export const ZKeywordResearch = z.object({
  term: z.string(),
  storefront: z.string(),
  resultCount: z.number().int(),
  checkedAt: ZIsoDateTime,
  topApps: z.array(ZResearchApp),
  popularity: ZKeywordEstimate,
  difficulty: ZKeywordEstimate,
  suggestions: z.array(z.object({ term: z.string(), source: ZSuggestionSource })),
  /** True when the store's search hints answered nothing (the suggestions lack that source). */
  hintsEmpty: z.boolean(),
});
export type TKeywordResearch = z.infer<typeof ZKeywordResearch>;

/** Answer of `GET /api/keywords/research` (202) for a term never read: its read was queued. */
export const ZKeywordResearchQueued = z.object({
  queued: z.literal(true),
  expectedBy: ZIsoDateTime,
});

/** Answer of `GET /api/keywords/gap`: terms x apps (the user's app first). */
export const ZKeywordGap = z.object({
  apps: z.array(z.object({ appId: z.string(), appName: z.string().nullable(), mine: z.boolean() })),
  rows: z.array(
    z.object({
      term: z.string(),
      tracked: z.boolean(),
      /** Rank per app, in the order of `apps` (null: absent from the first 200 or unread). */
      ranks: z.array(z.number().int().nullable()),
      /** A competitor is in the top 10 while the app is absent or below 50. */
      gap: z.boolean(),
    }),
  ),
});
export type TKeywordGap = z.infer<typeof ZKeywordGap>;

/** Thresholds of a gap: a competitor at or above this rank ... */
export const GAP_COMPETITOR_TOP = 10;
/** ... while the app is absent or below this rank. */
export const GAP_APP_BELOW = 50;

/**
 * Rank alerts: a move of at least this many places (`KEYWORD_ALERT_DELTA`) between two
 * consecutive reads of a term notifies the users tracking it; so does entering or leaving the
 * top {@link KEYWORD_ALERT_TOP} (docs/product.md#keyword-ranks).
 */
export const KEYWORD_ALERT_DELTA_DEFAULT = 5;

/** The top of the results whose entry or exit always alerts. */
export const KEYWORD_ALERT_TOP = 10;

/**
 * Whether a rank going from `from` to `to` (1-based, null: not in the first 200) is worth an
 * alert: a move of `delta` places or more (absent counts as position 201, so entering or
 * leaving the 200 is a move), or entering or leaving the top {@link KEYWORD_ALERT_TOP}.
 */
export function isRankAlert(from: number | null, to: number | null, delta: number): boolean {
  if (from === to) return false;
  const a = from ?? KEYWORD_RANK_DEPTH + 1;
  const b = to ?? KEYWORD_RANK_DEPTH + 1;
  const inTop = (r: number) => r <= KEYWORD_ALERT_TOP;
  return Math.abs(a - b) >= delta || inTop(a) !== inTop(b);
}

/** A rank shown in words: '#8', or 'not in the top 200'. */
export function rankLabel(rank: number | null): string {
  return rank === null ? `not in the top ${KEYWORD_RANK_DEPTH}` : `#${rank}`;
}

/**
 * A rank move between two consecutive reads of a term, as a notification and a
 * `keyword.rank_changed` webhook event carry it: the term, its storefront, the rank before and
 * after (null: not in the first 200), the user's track (null once untracked) and where the
 * order came from.
 */
export const ZKeywordRankMove = z.object({
  trackId: ZUuid.nullable(),
  term: z.string(),
  storefront: z.string(),
  from: z.number().int().min(1).max(KEYWORD_RANK_DEPTH).nullable(),
  to: z.number().int().min(1).max(KEYWORD_RANK_DEPTH).nullable(),
  source: ZRankSource,
});
export type TKeywordRankMove = z.infer<typeof ZKeywordRankMove>;

/** Longest range of `GET /api/apps/{appId}/keyword-ranks`, days. */
export const KEYWORD_RANKS_MAX_DAYS = 400;
/** Range of `GET /api/apps/{appId}/keyword-ranks` when `from` is not given, days before `to`. */
export const KEYWORD_RANKS_DEFAULT_DAYS = 90;
/** Points per term at most in one answer of `GET /api/apps/{appId}/keyword-ranks` (newest kept). */
export const KEYWORD_RANKS_MAX_POINTS = 1000;

/** Path parameters of `GET /api/apps/{appId}/keyword-ranks`. */
export const ZKeywordRanksParams = z.object({ appId: ZAppId });

/**
 * Query of `GET /api/apps/{appId}/keyword-ranks`: the storefront (default `us`) and the time
 * range, ISO 8601 (`from` inclusive, `to` inclusive; default the last
 * {@link KEYWORD_RANKS_DEFAULT_DAYS} days up to now; at most {@link KEYWORD_RANKS_MAX_DAYS}).
 */
export const ZKeywordRanksQuery = z.object({
  storefront: ZStorefront.default('us'),
  from: ZIsoDateTime.optional(),
  to: ZIsoDateTime.optional(),
});
export type TKeywordRanksQuery = z.infer<typeof ZKeywordRanksQuery>;

/** One read of a term as the rank history shows it: when, the app's rank (null: not in the 200). */
export const ZKeywordRankPoint = z.object({
  checkedAt: ZIsoDateTime,
  rank: z.number().int().min(1).max(KEYWORD_RANK_DEPTH).nullable(),
  source: ZRankSource,
});
export type TKeywordRankPoint = z.infer<typeof ZKeywordRankPoint>;

/**
 * Answer of `GET /api/apps/{appId}/keyword-ranks?storefront=&from=&to=`: the rank history of
 * every term the user tracks for the app in the storefront, for a timeline's time axis (the
 * same axis as the listing's changes, `GET /api/apps/{appId}/history`). `terms` in tracking
 * order; `points` oldest first, within [`from`, `to`] (at most
 * {@link KEYWORD_RANKS_MAX_POINTS} per term, the newest; `truncated` then). A term with no
 * read in the range has no points. An app without tracked terms answers `terms: []` (not 404:
 * the app need not be watched).
 */
export const ZKeywordRanks = z.object({
  appId: z.string(),
  storefront: z.string(),
  from: ZIsoDateTime,
  to: ZIsoDateTime,
  /** Deepest position read: a null rank means "not in the first `depth` results". */
  depth: z.literal(KEYWORD_RANK_DEPTH),
  terms: z.array(
    z.object({
      trackId: ZUuid,
      term: z.string(),
      bestRank: z.number().int().nullable(),
      points: z.array(ZKeywordRankPoint),
      truncated: z.boolean(),
    }),
  ),
});
export type TKeywordRanks = z.infer<typeof ZKeywordRanks>;

/** Terms of an audit's keyword text given ranks at most (the field holds 100 characters). */
export const AUDIT_KEYWORD_TERMS_MAX = 50;

/** Path parameters of `GET /api/audit/{id}/keyword-ranks`. */
export const ZAuditKeywordRanksParams = z.object({ id: ZUuid });

/**
 * Answer of `GET /api/audit/{id}/keyword-ranks`: for each term of the audit's keyword text
 * (split as the keyword section splits it, normalised for the storefront, at most
 * {@link AUDIT_KEYWORD_TERMS_MAX}), the ranks of the audit's app and its competitors from the
 * term's latest stored read in the audit's storefront. `apps`: the audit's app first, then its
 * competitors in input order (names from the audit's result, null before it is done).
 * `ranks` follow `apps` (null: not in the first 200, or no read); `checkedAt` and `source` are
 * null for a term never read (track it to read it: `POST /api/keywords`); `trackId` is the
 * caller's track of the term for the audit's app (null when not tracked, and for an admin).
 * An audit without keywords answers `terms: []`.
 */
export const ZAuditKeywordRanks = z.object({
  auditId: ZUuid,
  storefront: z.string(),
  appStoreUrl: z.string(),
  apps: z.array(z.object({ appId: z.string(), appName: z.string().nullable(), mine: z.boolean() })),
  terms: z.array(
    z.object({
      term: z.string(),
      trackId: ZUuid.nullable(),
      checkedAt: ZIsoDateTime.nullable(),
      source: ZRankSource.nullable(),
      ranks: z.array(z.number().int().min(1).max(KEYWORD_RANK_DEPTH).nullable()),
    }),
  ),
});
export type TAuditKeywordRanks = z.infer<typeof ZAuditKeywordRanks>;
