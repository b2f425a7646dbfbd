import { LRUCache } from 'lru-cache';
import type { CacheInvalidationBus, TInvalidation, TInvalidationHandler } from '@aso/queue';

/** Key of an invalidation that drops every entry of its scope. */
export const EVERY_KEY = '*';

/** Options of {@link SharedReadCache}. */
export interface TSharedReadCacheOptions<V> {
  /** The invalidation scope of the cache's keys (e.g. `session`). */
  scope: string;
  /** Entries kept at most (least recently read go first). */
  max: number;
  /**
   * Estimated memory the entries may take in all (bytes), with `sizeOf` giving an entry's;
   * least recently read go first. Absent: only `max` bounds the cache.
   */
  maxBytes?: { total: number; sizeOf: (value: V) => number };
  /** Lifetime of an entry (ms): the bound on staleness when no invalidation is sent. */
  ttlMs: number;
  /**
   * Other scopes whose invalidations also drop entries: for each, the key of that scope an
   * entry depends on (e.g. a session's access code id), or null.
   */
  dependsOn?: Record<string, (value: V) => string | null>;
}

/**
 * A per-process LRU cache (`lru-cache`) of database reads, kept coherent across processes by
 * the {@link CacheInvalidationBus}: whatever writes what an entry was read from calls
 * {@link SharedReadCache.drop} (or publishes on the bus), which drops it here at once and in
 * every other api replica as the message arrives. Entries are only kept while the bus is live
 * and when no invalidation arrived during their read (see `CacheInvalidationBus.generation`);
 * otherwise every read goes to the database. The time-to-live bounds what writers outside the
 * api (workers) may leave stale.
 */
export class SharedReadCache<V extends object> implements TInvalidationHandler {
  private readonly lru: LRUCache<string, V>;
  /** Loads in flight by key: concurrent misses of one key share one read. */
  private readonly inflight = new Map<string, Promise<V | null>>();
  private readonly unregister: () => void;

  constructor(
    private readonly bus: CacheInvalidationBus,
    private readonly opts: TSharedReadCacheOptions<V>,
  ) {
    this.lru = new LRUCache<string, V>({
      max: opts.max,
      ttl: opts.ttlMs,
      ...(opts.maxBytes && {
        maxSize: opts.maxBytes.total,
        // lru-cache refuses a size below 1.
        sizeCalculation: (value: V) => Math.max(1, opts.maxBytes!.sizeOf(value)),
      }),
    });
    this.unregister = bus.register(this);
  }

  /** Entries held (tests, metrics). */
  get size(): number {
    return this.lru.size;
  }

  /**
   * The entry of `key`, else what `load` reads: kept when it is not null, `keep` allows it
   * (default: always), the bus is live and nothing was invalidated meanwhile. `load` errors
   * are thrown as they are. Concurrent misses of one key share one `load` (so an entry that
   * lapses under load costs one read, not one per waiting request): `load` must not depend on
   * the caller. A load that an invalidation overtook is not joined by later reads.
   */
  async read(
    key: string,
    load: () => Promise<V | null>,
    keep: (value: V) => boolean = () => true,
  ): Promise<V | null> {
    const hit = this.lru.get(key);
    if (hit !== undefined) return hit;
    const running = this.inflight.get(key);
    if (running) return running;
    const generation = this.bus.generation;
    const loading = load().then((value) => {
      if (
        value !== null &&
        this.opts.ttlMs > 0 &&
        this.bus.live &&
        this.bus.generation === generation &&
        keep(value)
      )
        this.lru.set(key, value);
      return value;
    });
    this.inflight.set(key, loading);
    const forget = () => {
      if (this.inflight.get(key) === loading) this.inflight.delete(key);
    };
    loading.then(forget, forget);
    return loading;
  }

  /** Drops `key` here at once and in every other process (see `CacheInvalidationBus.publish`). */
  async drop(key: string): Promise<void> {
    await this.bus.publish(this.opts.scope, key);
  }

  /** Drops the entry of `key` without telling other processes (an entry found stale on read). */
  forget(key: string): void {
    this.lru.delete(key);
  }

  invalidate(message: TInvalidation): void {
    if (message.scope === this.opts.scope) {
      if (message.key === EVERY_KEY) this.reset();
      else {
        this.lru.delete(message.key);
        this.inflight.delete(message.key);
      }
      return;
    }
    const keyOf = this.opts.dependsOn?.[message.scope];
    if (!keyOf) return;
    this.inflight.clear();
    for (const [key, value] of this.lru.entries()) {
      if (message.key === EVERY_KEY || keyOf(value) === message.key) this.lru.delete(key);
    }
  }

  reset(): void {
    this.lru.clear();
    this.inflight.clear();
  }

  /** Stops listening to invalidations and empties the cache. */
  close(): void {
    this.unregister();
    this.lru.clear();
  }
}
