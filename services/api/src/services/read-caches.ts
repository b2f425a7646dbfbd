import type { SessionIdentity } from '@aso/db';
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

/** A list answer as kept: the JSON the route answers. */
export interface TCachedList {
  json: string;
}

/** The gateway's read caches (see {@link createReadCaches}). */
export interface ReadCaches {
  /** Live sessions by token hash, dropped at logout and with their access code. */
  sessions: SharedReadCache<SessionIdentity>;
  /** Answers of finished (done or failed) audits by id: they never change, only go away. */
  audits: SharedReadCache<TCachedAudit>;
  /** `GET /api/saved-audits` answers by user id. */
  savedAudits: SharedReadCache<TCachedList>;
  /** `GET /api/dashboards` answers by user id. */
  dashboards: SharedReadCache<TCachedList>;
}

/** Entries per cache: a few KB each (an audit answer about 11 KB), so well under 100 MB in all. */
const MAX_ENTRIES = { sessions: 20_000, audits: 2_000, lists: 10_000 } as const;

/**
 * The reads every page load makes (the session behind every signed-in call, the audit read,
 * the saved-audit and dashboard lists) served from per-process caches kept coherent across
 * api replicas by `bus` (Redis pub/sub): logout, access code deactivation, saving and deleting
 * drop the entries in every replica before they answer. Entries live `ttlMs` at most (0: no
 * caching).
 */
export function createReadCaches(bus: CacheInvalidationBus, ttlMs: number): ReadCaches {
  return {
    sessions: new SharedReadCache<SessionIdentity>(bus, {
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
      ttlMs,
    }),
    dashboards: new SharedReadCache<TCachedList>(bus, {
      scope: CACHE_SCOPES.dashboards,
      max: MAX_ENTRIES.lists,
      ttlMs,
    }),
  };
}
