import type { TSessionIdentity } from '@aso/db';
import { CACHE_SCOPES, type CacheInvalidationBus } from '@aso/queue';
import { SharedReadCache } from './shared-read.cache';
import type { TChartCoding } from './dataset.cache';

/** A finished audit's answer as kept: its owner and the JSON the route answers. */
export interface TCachedAudit {
  /** The owner (null when the user is gone: only admins read it then). */
  userId: string | null;
  /** Done or failed: only such answers are kept (a queued or running audit still changes). */
  finished: boolean;
  /** `JSON.stringify` of the answer checked against `ZAudit`. */
  json: string;
  /** The JSON compressed in each coding (kept answers only: finished audits). */
  encoded: Partial<Record<TChartCoding, Buffer>>;
}

/** A list's first page as kept: the JSON the route answers and its `Link` header (or null). */
export interface TCachedList {
  json: string;
  link: string | null;
}

/** A share link as kept: what it opens and until when. */
export interface TCachedShareLink {
  auditId: string;
  /** The audit's owner: the PDF is the owner's document. */
  userId: string;
  /** Epoch ms after which the link answers 404; null: until revoked. */
  expiresAt: number | null;
}

/** The gateway's read caches (see {@link createReadCaches}). */
export interface TReadCaches {
  /** Live sessions by token hash, dropped at logout and with their access code. */
  sessions: SharedReadCache<TSessionIdentity>;
  /** Answers of finished (done or failed) audits by id: they never change, only go away. */
  audits: SharedReadCache<TCachedAudit>;
  /** `GET /api/saved-audits` answers by user id. */
  savedAudits: SharedReadCache<TCachedList>;
  /** `GET /api/dashboards` answers by user id. */
  dashboards: SharedReadCache<TCachedList>;
  /** Share links by token hash, dropped in every replica when revoked. */
  shareLinks: SharedReadCache<TCachedShareLink>;
}

/** Entries per cache: a few KB each (an audit answer about 11 KB), so well under 100 MB in all. */
const MAX_ENTRIES = { sessions: 20_000, audits: 2_000, lists: 10_000 } as const;

/**
 * The reads every page load makes (the session behind every signed-in call, the audit read,
 * the saved-audit and dashboard lists, share links) served from per-process caches kept coherent across
 * api replicas by `bus` (Redis pub/sub): logout, access code deactivation, saving and deleting
 * drop the entries in every replica before they answer. Entries live `ttlMs` at most (0: no
 * caching); the two list caches hold `listCacheBytes` (estimated) together at most.
 */
export function createReadCaches(
  bus: CacheInvalidationBus,
  ttlMs: number,
  listCacheBytes: number,
): TReadCaches {
  // Each list cache gets half of the budget; a JSON character is counted as two bytes (V8
  // strings of non-Latin-1 text).
  const listBytes = {
    total: Math.max(1, Math.floor(listCacheBytes / 2)),
    sizeOf: (l: TCachedList) => 2 * (l.json.length + (l.link?.length ?? 0)),
  };
  return {
    sessions: new SharedReadCache<TSessionIdentity>(bus, {
      scope: CACHE_SCOPES.session,
      max: MAX_ENTRIES.sessions,
      ttlMs,
      dependsOn: { [CACHE_SCOPES.accessCode]: (s) => s.accessCodeId },
    }),
    audits: new SharedReadCache<TCachedAudit>(bus, {
      scope: CACHE_SCOPES.audit,
      max: MAX_ENTRIES.audits,
      ttlMs,
    }),
    savedAudits: new SharedReadCache<TCachedList>(bus, {
      scope: CACHE_SCOPES.savedAudits,
      max: MAX_ENTRIES.lists,
      maxBytes: listBytes,
      ttlMs,
    }),
    dashboards: new SharedReadCache<TCachedList>(bus, {
      scope: CACHE_SCOPES.dashboards,
      max: MAX_ENTRIES.lists,
      maxBytes: listBytes,
      ttlMs,
    }),
    shareLinks: new SharedReadCache<TCachedShareLink>(bus, {
      scope: CACHE_SCOPES.shareLink,
      max: MAX_ENTRIES.lists,
      ttlMs,
    }),
  };
}
