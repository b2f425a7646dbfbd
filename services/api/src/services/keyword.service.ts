import { parseAppStoreUrl } from '@aso/appstore';
import {
  estimateDifficulty,
  estimatePopularity,
  keywordTerms,
  textNgrams,
  titleMatch,
  type TEstimateApp,
} from '@aso/aso-rules';
import {
  AUDIT_KEYWORD_TERMS_MAX,
  GAP_APP_BELOW,
  GAP_COMPETITOR_TOP,
  isAppStoreStorefront,
  KEYWORD_RANK_DEPTH,
  KEYWORD_RANKS_DEFAULT_DAYS,
  KEYWORD_RANKS_MAX_DAYS,
  KEYWORD_RANKS_MAX_POINTS,
  normalizeTerm,
  splitTermList,
  termProblem,
  ZAuditInputs,
  ZAuditResult,
  ZRankSource,
  type TAuditKeywordRanks,
  type TKeywordGap,
  type TKeywordItem,
  type TKeywordRanks,
  type TKeywordRanksQuery,
  type TKeywordResearch,
  type TKeywordTrackBody,
} from '@aso/contracts';
import {
  ensureKeywordTerm,
  keywordRanksForApp,
  keywordSuggestionTexts,
  keywordTrackIds,
  latestKeywordReads,
  listKeywordTracks,
  listKeywordTracksPage,
  listWatchItems,
  trackedTerms,
  type TAuditRow,
  type TKeywordTermRef,
  trackKeywords,
  type TDb,
  type TKeywordTrackView,
  type TPage,
  type TPageRequest,
} from '@aso/db';
import { keywordReadJobId, type Producers } from '@aso/queue';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, badRequest, notFound } from '../lib/app-error';
import type { SearchHintsReader } from './search-hints.reader';

/** What the keyword calls use. */
export interface TKeywordDeps {
  db: TDb;
  producers: Producers;
  log: FastifyBaseLogger;
  /** `KEYWORDS_MAX_PER_APP`. */
  maxPerApp: number;
  /** `KEYWORDS_MAX_PER_USER`. */
  maxPerUser: number;
  /** `ITUNES_SEARCH_RATE_PER_MIN` (to say when queued reads can be done). */
  searchRatePerMin: number;
  /** The store's search hints, best effort (research suggestions). */
  hints: SearchHintsReader;
}

/** A stored top result (what the scraper keeps of a read's first 10). */
interface TStoredTop extends TEstimateApp {
  appId: string;
  iconUrl: string | null;
}

function storedTop(top: unknown[] | null): TStoredTop[] {
  if (!Array.isArray(top)) return [];
  return top.filter(
    (t): t is TStoredTop =>
      typeof t === 'object' && t !== null && typeof (t as TStoredTop).appId === 'string',
  );
}

/**
 * How long a new term waits for the first read queued by the track request before a round
 * reads it instead (seconds): a read lost with Redis is made up by a round after it.
 */
const FIRST_READ_LEASE_S = 15 * 60;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Rank of `appId` in a read's ordered ids (1-based), null when absent or never read. */
const rankIn = (ids: readonly string[] | null, appId: string): number | null => {
  if (!ids) return null;
  const i = ids.indexOf(appId);
  return i === -1 ? null : i + 1;
};

/** The user's watched competitors in `storefront`: app id and name. */
async function competitorsIn(db: TDb, userId: string, storefront: string) {
  const items = await listWatchItems(db, userId);
  return items
    .filter((i) => i.role === 'competitor' && i.storefront === storefront)
    .map((i) => ({ appId: i.appId, appName: i.appName }));
}

/** The estimates of a term from its last read (null before one). */
function estimatesOf(v: Pick<TKeywordTrackView, 'term' | 'storefront' | 'resultCount' | 'top'>) {
  if (v.resultCount === null) return { popularity: null, difficulty: null };
  const input = {
    term: v.term,
    storefront: v.storefront,
    resultCount: Math.min(v.resultCount, 200),
    top: storedTop(v.top),
    now: Date.now(),
  };
  return { popularity: estimatePopularity(input), difficulty: estimateDifficulty(input) };
}

/** The contracts' keyword item of a stored track, with competitors' ranks from the same read. */
export function toKeywordItem(
  v: TKeywordTrackView,
  competitors: ReadonlyArray<{ appId: string; appName: string | null }>,
): TKeywordItem {
  const rank = rankIn(v.latestIds, v.appId);
  const source = ZRankSource.safeParse(v.latestSource);
  return {
    id: v.id,
    term: v.term,
    appId: v.appId,
    storefront: v.storefront,
    rank,
    previousRank: v.previousRank,
    bestRank: v.bestRank,
    // Not in the top 200 counts as 201 for a move: leaving or entering the list is a change.
    change7d:
      v.has7d && v.latestIds && (rank !== null || v.rank7d !== null)
        ? (v.rank7d ?? 201) - (rank ?? 201)
        : null,
    checkedAt: iso(v.latestAt),
    nextReadAt: iso(v.throttledUntil ?? v.nextCheckAt),
    resultCount: v.resultCount,
    source: source.success ? source.data : null,
    lastError: v.lastError,
    throttledUntil: iso(v.throttledUntil),
    competitors: competitors.map((c) => ({
      appId: c.appId,
      appName: c.appName,
      rank: rankIn(v.latestIds, c.appId),
    })),
    ...estimatesOf(v),
    recent: v.recent.map((p) => ({ checkedAt: p.readAt.toISOString(), rank: p.rank })),
    createdAt: v.createdAt.toISOString(),
  };
}

/**
 * The user's tracked terms for app `appId` in `storefront` with ranks, competitors' ranks from
 * the same read and estimates (at most `KEYWORDS_MAX_PER_APP` items).
 */
export async function listKeywords(
  db: TDb,
  userId: string,
  appId: string,
  storefront: string,
): Promise<TKeywordItem[]> {
  const [tracks, competitors] = await Promise.all([
    listKeywordTracks(db, userId, appId, storefront),
    competitorsIn(db, userId, storefront),
  ]);
  return tracks.map((t) => toKeywordItem(t, competitors));
}

/** One page of {@link listKeywords} (docs/product.md#lists-and-pages). */
export async function listKeywordsPage(
  db: TDb,
  userId: string,
  appId: string,
  storefront: string,
  page: TPageRequest,
): Promise<TPage<TKeywordItem>> {
  const [tracks, competitors] = await Promise.all([
    listKeywordTracksPage(db, userId, appId, storefront, page),
    competitorsIn(db, userId, storefront),
  ]);
  return { rows: tracks.rows.map((t) => toKeywordItem(t, competitors)), next: tracks.next };
}

/**
 * Normalises the terms of a track request ({@link normalizeTerm} for the storefront; a term
 * holding commas or new lines is split as a pasted list), merging duplicates in first-seen
 * order. Throws a 400 naming `field` and the first bad term.
 */
export function normalizeTerms(
  terms: readonly string[],
  storefront: string,
  field = 'terms',
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of terms.flatMap((t) => (/[,\n\r]/.test(t) ? splitTermList(t) : [t]))) {
    const term = normalizeTerm(raw, storefront);
    const problem = termProblem(term);
    if (problem) {
      const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
      throw badRequest(`${field}: "${shown}" ${problem}`);
    }
    if (!seen.has(term)) {
      seen.add(term);
      out.push(term);
    }
  }
  if (out.length === 0) throw badRequest(`${field}: give at least one term`);
  return out;
}

/** The app id and storefront of a track request's URL; 400 naming a bad URL. */
function appOfUrl(url: string): { appId: string; storefront: string } {
  const parsed = parseAppStoreUrl(url);
  if (parsed.status !== 'valid' || !parsed.appId) {
    throw badRequest(`appStoreUrl: ${parsed.error ?? 'Enter a valid App Store URL.'}`);
  }
  if (!isAppStoreStorefront(parsed.storefront)) {
    throw badRequest(`appStoreUrl: "${parsed.storefront}" is not an App Store storefront`);
  }
  return { appId: parsed.appId, storefront: parsed.storefront };
}

/**
 * Queues a read of each term now: the first read of a new term (`first`, once per term) or a
 * refresh (once per term and minute however often it is asked). Returns how many.
 */
async function queueReads(
  deps: TKeywordDeps,
  terms: readonly TKeywordTermRef[],
  kind: 'first' | 'refresh',
): Promise<number> {
  const tag = kind === 'first' ? 'first' : `refresh-${Math.floor(Date.now() / 60_000)}`;
  await deps.producers.addMany(
    'keyword-read',
    terms.map((t) => ({
      data: { ...t, refresh: true },
      opts: { jobId: keywordReadJobId(t.termId, tag), priority: 1 },
    })),
  );
  return terms.length;
}

/**
 * Tracks `body.terms` for the app of `body.appStoreUrl` in its storefront. Terms never read are
 * queued for a first read at once (under the search limiter); if Redis refuses, the next round
 * reads them. Answers every tracked term of the app in that storefront.
 *
 * @throws AppError 400 naming a bad URL or term; 409 past `KEYWORDS_MAX_PER_APP` or
 *   `KEYWORDS_MAX_PER_USER`.
 */
export async function track(
  deps: TKeywordDeps,
  userId: string,
  body: TKeywordTrackBody,
): Promise<TKeywordItem[]> {
  const { appId, storefront } = appOfUrl(body.appStoreUrl);
  const terms = normalizeTerms(body.terms, storefront);
  if (terms.length > deps.maxPerApp) {
    throw badRequest(`terms: at most ${deps.maxPerApp} terms per app and storefront`);
  }
  const outcome = await trackKeywords(deps.db, {
    userId,
    appId,
    storefront,
    terms,
    maxPerApp: deps.maxPerApp,
    maxPerUser: deps.maxPerUser,
    firstReadLeaseSeconds: FIRST_READ_LEASE_S,
  });
  if (outcome.status === 'full') {
    throw new AppError(
      'CONFLICT',
      `You can track at most ${deps.maxPerApp} terms for an app in a storefront (KEYWORDS_MAX_PER_APP; ${outcome.tracked} tracked); remove some to add others`,
    );
  }
  if (outcome.status === 'user-full') {
    throw new AppError(
      'CONFLICT',
      `You can track at most ${deps.maxPerUser} terms in all (KEYWORDS_MAX_PER_USER; ${outcome.tracked} tracked); remove some to add others`,
    );
  }
  if (outcome.unread.length > 0) {
    await queueReads(deps, outcome.unread, 'first').catch((err: unknown) =>
      deps.log.warn({ err }, 'first keyword reads not queued; the next round reads them'),
    );
  }
  return listKeywords(deps.db, userId, appId, storefront);
}

/**
 * Queues a read now of every term the user tracks for the app in the storefront, under the
 * search limiter (one read per term and minute however often it is asked). Returns how many
 * and when they can be done at the earliest (the limiter's pace).
 *
 * @throws AppError 404 when the user tracks no term for that app and storefront.
 */
export async function refresh(
  deps: TKeywordDeps,
  userId: string,
  appId: string,
  storefront: string,
): Promise<{ queued: number; expectedBy: string }> {
  const ids = await trackedTerms(deps.db, userId, appId, storefront);
  if (ids.length === 0) throw notFound('No tracked terms for this app and storefront');
  const queued = await queueReads(deps, ids, 'refresh');
  const expectedBy = new Date(Date.now() + (queued * 60_000) / deps.searchRatePerMin);
  return { queued, expectedBy: expectedBy.toISOString() };
}

/**
 * Research of a term in a storefront from its last read: top 10 with title matches, the
 * popularity and difficulty estimates with their signals, and suggestions: the store's search
 * hints (best effort within `SEARCH_HINTS_TIMEOUT_MS`; `hintsEmpty` when they gave nothing,
 * as they mostly do today), the user's keyword field and the n-grams of the watched
 * competitors' titles and subtitles, at most 30. A term never read is queued for a read and
 * answered `{ queued, expectedBy }` (the route answers 202; the client asks again after
 * `expectedBy`). docs/product.md#keyword-ranks.
 *
 * @throws AppError 400 naming a bad term.
 */
export async function research(
  deps: TKeywordDeps,
  userId: string,
  query: { term: string; storefront: string; appId?: string | undefined },
): Promise<TKeywordResearch | { queued: true; expectedBy: string }> {
  const [term] = normalizeTerms([query.term], query.storefront, 'term');
  const row = await ensureKeywordTerm(deps.db, term!, query.storefront);
  if (row.lastCheckedAt === null || row.resultCount === null) {
    await queueReads(
      deps,
      [{ termId: row.id, term: term!, storefront: query.storefront }],
      'first',
    );
    return {
      queued: true,
      expectedBy: new Date(Date.now() + 60_000 / deps.searchRatePerMin).toISOString(),
    };
  }
  const top = storedTop(row.top);
  const input = {
    term: term!,
    storefront: query.storefront,
    resultCount: Math.min(row.resultCount, 200),
    top,
    now: Date.now(),
  };
  const [texts, hints] = await Promise.all([
    keywordSuggestionTexts(deps.db, userId, query.appId ?? null, query.storefront),
    deps.hints.read(term!, query.storefront, deps.log),
  ]);
  const suggestions: TKeywordResearch['suggestions'] = [];
  const seen = new Set([term]);
  const add = (t: string, source: TKeywordResearch['suggestions'][number]['source']) => {
    const n = normalizeTerm(t, query.storefront);
    if (termProblem(n) || seen.has(n) || suggestions.length >= 30) return;
    seen.add(n);
    suggestions.push({ term: n, source });
  };
  for (const t of hints.terms) add(t, 'search-hints');
  for (const t of splitTermList(texts.keywordField)) add(t, 'keyword-field');
  for (const t of textNgrams(texts.competitorTexts, query.storefront)) add(t, 'competitor-title');
  return {
    term: term!,
    storefront: query.storefront,
    resultCount: row.resultCount,
    checkedAt: row.lastCheckedAt.toISOString(),
    topApps: top.map((a) => ({
      appId: a.appId,
      appName: a.name,
      developer: a.developer,
      iconUrl: a.iconUrl,
      rating: a.rating,
      ratingCount: a.ratingCount,
      releasedAt: a.releasedAt,
      updatedAt: a.updatedAt,
      titleMatch: titleMatch(term!, a.name, query.storefront),
    })),
    popularity: estimatePopularity(input),
    difficulty: estimateDifficulty(input),
    suggestions,
    hintsEmpty: !suggestions.some((x) => x.source === 'search-hints'),
  };
}

/**
 * The keyword gap of the user's app in a storefront: its tracked terms (and the terms of its
 * watched competitors' titles and subtitles it does not track, unread) x the app and the
 * competitors, ranks from each term's latest read; `gap` where a competitor is in the top
 * {@link GAP_COMPETITOR_TOP} and the app is absent or below {@link GAP_APP_BELOW}.
 */
export async function keywordGap(
  db: TDb,
  userId: string,
  appId: string,
  storefront: string,
): Promise<TKeywordGap> {
  const [tracks, competitors, texts] = await Promise.all([
    listKeywordTracks(db, userId, appId, storefront),
    competitorsIn(db, userId, storefront),
    keywordSuggestionTexts(db, userId, appId, storefront),
  ]);
  const appIds = [appId, ...competitors.map((c) => c.appId)];
  const rows: TKeywordGap['rows'] = tracks.map((t) => {
    const ranks = appIds.map((id) => rankIn(t.latestIds, id));
    const mine = ranks[0] ?? null;
    const gap =
      ranks.slice(1).some((r) => r !== null && r <= GAP_COMPETITOR_TOP) &&
      (mine === null || mine > GAP_APP_BELOW);
    return { term: t.term, tracked: true, ranks, gap };
  });
  const tracked = new Set(tracks.map((t) => t.term));
  for (const term of textNgrams(texts.competitorTexts, storefront, 15)) {
    if (tracked.has(term)) continue;
    rows.push({ term, tracked: false, ranks: appIds.map(() => null), gap: false });
  }
  const names = new Map(tracks.flatMap((t) => storedTop(t.top).map((a) => [a.appId, a.name])));
  return {
    apps: [
      { appId, appName: names.get(appId) ?? null, mine: true },
      ...competitors.map((c) => ({ appId: c.appId, appName: c.appName, mine: false })),
    ],
    rows,
  };
}

const DAY_MS = 86_400_000;

/**
 * The time range of a rank history request: `to` (default now) and `from` (default
 * {@link KEYWORD_RANKS_DEFAULT_DAYS} days before `to`), both inclusive.
 *
 * @throws AppError 400 when `from` is after `to` or the range is longer than
 *   {@link KEYWORD_RANKS_MAX_DAYS} days.
 */
export function rankRange(
  query: Pick<TKeywordRanksQuery, 'from' | 'to'>,
  now = Date.now(),
): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : new Date(now);
  const from = query.from
    ? new Date(query.from)
    : new Date(to.getTime() - KEYWORD_RANKS_DEFAULT_DAYS * DAY_MS);
  if (from > to) throw badRequest('from: must not be after to');
  if (to.getTime() - from.getTime() > KEYWORD_RANKS_MAX_DAYS * DAY_MS) {
    throw badRequest(`from: the range is at most ${KEYWORD_RANKS_MAX_DAYS} days`);
  }
  return { from, to };
}

/**
 * The rank history of app `appId` in a storefront for the timeline (contracts
 * `ZKeywordRanks`, docs/product.md#keyword-ranks): every term the user tracks for it, the reads
 * of the range oldest first (at most {@link KEYWORD_RANKS_MAX_POINTS} per term, the newest).
 *
 * @throws AppError 400 naming a bad range ({@link rankRange}).
 */
export async function keywordRanks(
  db: TDb,
  userId: string,
  appId: string,
  query: TKeywordRanksQuery,
): Promise<TKeywordRanks> {
  const { from, to } = rankRange(query);
  const series = await keywordRanksForApp(db, {
    userId,
    appId,
    storefront: query.storefront,
    from,
    to,
    maxPoints: KEYWORD_RANKS_MAX_POINTS,
  });
  return {
    appId,
    storefront: query.storefront,
    from: from.toISOString(),
    to: to.toISOString(),
    depth: KEYWORD_RANK_DEPTH,
    terms: series.map((t) => ({
      trackId: t.trackId,
      term: t.term,
      bestRank: t.bestRank,
      points: t.points.map((p) => ({
        checkedAt: p.readAt.toISOString(),
        rank: p.rank,
        source: ZRankSource.parse(p.source),
      })),
      truncated: t.truncated,
    })),
  };
}

/**
 * The terms of an audit's keyword text as ranks are read for them: split as the keyword
 * section splits it (`keywordTerms`: commas, else spaces), normalised for the storefront,
 * untrackable ones dropped, duplicates merged, at most {@link AUDIT_KEYWORD_TERMS_MAX}.
 */
export function auditTerms(keywords: string, storefront: string): string[] {
  const out = new Set<string>();
  for (const raw of keywordTerms(keywords)) {
    const term = normalizeTerm(raw, storefront);
    if (termProblem(term) === null) out.add(term);
  }
  return [...out].slice(0, AUDIT_KEYWORD_TERMS_MAX);
}

/**
 * The ranks of audit `audit`'s keywords for its app and competitors (contracts
 * `ZAuditKeywordRanks`, docs/product.md#keyword-ranks), from each term's latest stored read in
 * the audit's storefront; nothing is read from the store. `userId` is the caller (null for an
 * admin), whose tracks of the terms for the audit's app are named.
 */
export async function auditKeywordRanks(
  db: TDb,
  userId: string | null,
  audit: TAuditRow,
): Promise<TAuditKeywordRanks> {
  const inputs = ZAuditInputs.safeParse(audit.inputs);
  const storefront = audit.storefront;
  const competitors = inputs.success ? inputs.data.competitors : [];
  const terms = inputs.success ? auditTerms(inputs.data.keywords, storefront) : [];
  const result = audit.result ? ZAuditResult.safeParse(audit.result) : null;
  const names = result?.success
    ? [result.data.main.appName, ...result.data.competitors.map((c) => c.appName)]
    : [];
  const apps = [
    { appId: audit.app_id, appName: names[0] || audit.app_name || null, mine: true },
    ...competitors.map((c, i) => ({ appId: c.appId, appName: names[i + 1] || null, mine: false })),
  ];
  const [reads, tracks] = await Promise.all([
    latestKeywordReads(db, storefront, terms),
    userId
      ? keywordTrackIds(db, userId, audit.app_id, storefront, terms)
      : new Map<string, string>(),
  ]);
  return {
    auditId: audit.id,
    storefront,
    appStoreUrl: audit.app_store_url,
    apps,
    terms: terms.map((term) => {
      const read = reads.get(term);
      const source = read ? ZRankSource.safeParse(read.source) : null;
      return {
        term,
        trackId: tracks.get(term) ?? null,
        checkedAt: read ? read.readAt.toISOString() : null,
        source: source?.success ? source.data : null,
        ranks: apps.map((a) => rankIn(read?.appIds ?? null, a.appId)),
      };
    }),
  };
}
