import { searchHints } from '@aso/appstore/node';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';

/** How long the hints of a term are kept (ms): they change slowly. */
const KEEP_MS = 6 * 3_600_000;
/** How long a failed hints request is remembered (ms), so a dead endpoint is not asked on every research. */
const FAILED_KEEP_MS = 5 * 60_000;
/** Terms whose hints are kept at most (per gateway process). */
const MAX_TERMS = 5_000;

/** The store's hints of one term: the suggested terms, or the reason none could be read. */
export interface THintsRead {
  terms: string[];
  /** Why the request failed (timeout, HTTP status), null when the store answered. */
  error: string | null;
}

/**
 * Reads the store's search hints for research, best effort (docs/product.md#keyword-ranks):
 * one request per term and storefront within `timeoutMs` (`searchHints` of @aso/appstore),
 * answers kept {@link KEEP_MS} per process (failures {@link FAILED_KEEP_MS}), at most
 * {@link MAX_TERMS} terms. Never throws: a failure gives no hints, with its reason.
 */
export class SearchHintsReader {
  private readonly cache = new LRUCache<string, THintsRead>({ max: MAX_TERMS });

  constructor(
    private readonly origin: string,
    private readonly timeoutMs: number,
  ) {}

  async read(term: string, storefront: string, log: FastifyBaseLogger): Promise<THintsRead> {
    const key = `${storefront}:${term}`;
    const kept = this.cache.get(key);
    if (kept) return kept;
    let read: THintsRead;
    try {
      read = {
        terms: await searchHints({
          term,
          storefront,
          origin: this.origin,
          timeoutMs: this.timeoutMs,
        }),
        error: null,
      };
      this.cache.set(key, read, { ttl: KEEP_MS });
    } catch (err) {
      read = { terms: [], error: err instanceof Error ? err.message : String(err) };
      log.warn({ err, storefront }, 'search hints not read; research answers without them');
      this.cache.set(key, read, { ttl: FAILED_KEEP_MS });
    }
    return read;
  }
}
