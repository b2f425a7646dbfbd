import type { TRedisClient } from './redis';

/**
 * Invalidation scopes of the api's read caches (the keys each names). Shared here because other
 * processes change what those caches hold: the render worker revokes the session it opened.
 */
export const CACHE_SCOPES = {
  /** A session, by its token hash. */
  session: 'session',
  /** Every session opened with an access code, by the code's id. */
  accessCode: 'access-code',
  /** A finished audit's answer, by audit id. */
  audit: 'audit',
  /** A user's saved audits, by user id. */
  savedAudits: 'saved-audits',
  /** A user's dashboards, by user id. */
  dashboards: 'dashboards',
  /** A share link, by its token hash. */
  shareLink: 'share-link',
} as const;

/** The pub/sub channel of the deployment with key prefix `prefix` (`QUEUE_PREFIX`). */
function invalidationChannel(prefix: string): string {
  return `${prefix}:cache-invalidate`;
}

/**
 * Tells every process subscribed through a {@link CacheInvalidationBus} (every api replica) to
 * drop what `scope`/`key` names, from a process that keeps no such cache itself (a worker).
 * @param redis a command connection (PUBLISH).
 * @param prefix the deployment's key prefix (`QUEUE_PREFIX`).
 * @throws the Redis error when it cannot be published.
 */
export async function publishInvalidation(
  redis: TRedisClient,
  prefix: string,
  scope: string,
  key: string,
): Promise<void> {
  await redis.publish(invalidationChannel(prefix), JSON.stringify({ scope, key }));
}

/** One invalidation: the cache `scope` (e.g. `session`) and the `key` of the entries to drop. */
export interface TInvalidation {
  scope: string;
  key: string;
}

/** What a process does with invalidations: drop entries, or everything after a gap. */
export interface TInvalidationHandler {
  /** Drops what `message` names (the local process's own invalidations included). */
  invalidate(message: TInvalidation): void;
  /** Drops everything: invalidations may have been missed (subscription lost, or not live yet). */
  reset(): void;
}

/** How the subscriber connection reports its state (ioredis events). */
const DOWN_EVENTS = ['close', 'end', 'reconnecting'] as const;

/**
 * Invalidation of in-process caches across every process of the deployment (every api
 * replica): `publish` drops the entries at once in this process and sends `{ scope, key }` on
 * one pub/sub channel (`<prefix>:cache-invalidate`), whose subscribers drop them too.
 *
 * A cache may only keep what it reads while {@link CacheInvalidationBus.live} is true: the
 * subscription is confirmed and has not been lost since. When the subscriber connection drops,
 * `live` turns false at once (readers go to the database); when it is back and subscribed
 * again, every handler is reset first (messages sent meanwhile are lost), then `live` turns
 * true. {@link CacheInvalidationBus.generation} changes with every invalidation and reset, so a
 * reader that began before one can tell that what it read may be stale and must not keep it.
 *
 * The subscriber connection may be shared with other channel readers (the progress
 * subscriber): messages of other channels are ignored here.
 */
export class CacheInvalidationBus {
  readonly channel: string;
  private readonly handlers = new Set<TInvalidationHandler>();
  private isLive = false;
  private gen = 0;
  private started = false;
  private closed = false;
  private readonly onMessage = (channel: string, raw: string) => {
    if (channel !== this.channel) return;
    const message = parseInvalidation(raw);
    if (message) this.dispatch(message);
    // A message that does not parse cannot come from this code: drop everything to be safe.
    else this.reset();
  };
  private readonly onDown = () => {
    this.isLive = false;
    this.gen++;
  };
  private readonly onReady = () => void this.subscribe();

  /**
   * @param pub a command connection (PUBLISH).
   * @param sub a connection in (or to be put in) subscriber mode.
   * @param prefix the deployment's key prefix (`QUEUE_PREFIX`).
   */
  constructor(
    private readonly pub: TRedisClient,
    private readonly sub: TRedisClient,
    prefix: string,
  ) {
    this.channel = invalidationChannel(prefix);
  }

  /** True while invalidations are received: caches may keep what they read. */
  get live(): boolean {
    return this.isLive;
  }

  /** Changes with every invalidation, reset and loss of the subscription. */
  get generation(): number {
    return this.gen;
  }

  /** Adds a cache to tell about invalidations; returns the function that removes it. */
  register(handler: TInvalidationHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /**
   * Subscribes (and re-subscribes after every reconnect). Resolves once subscribed, or at once
   * when Redis is down: the bus then turns live when the connection is back. Idempotent.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.sub.on('message', this.onMessage);
    for (const e of DOWN_EVENTS) this.sub.on(e, this.onDown);
    this.sub.on('ready', this.onReady);
    if (this.sub.status === 'ready') await this.subscribe();
  }

  private async subscribe(): Promise<void> {
    if (this.closed) return;
    try {
      await this.sub.subscribe(this.channel);
    } catch {
      // Down again: the next 'ready' subscribes.
      return;
    }
    if (this.closed || this.sub.status !== 'ready') return;
    this.reset();
    this.isLive = true;
  }

  /**
   * Drops what `scope`/`key` names in this process at once, then in every other process
   * (PUBLISH). Resolves once Redis has taken the message.
   * @throws the Redis error when it cannot be published (other processes may keep stale
   *   entries until their time-to-live ends: the caller decides whether that fails its request).
   */
  async publish(scope: string, key: string): Promise<void> {
    this.dispatch({ scope, key });
    await this.pub.publish(this.channel, JSON.stringify({ scope, key }));
  }

  private dispatch(message: TInvalidation): void {
    this.gen++;
    for (const h of this.handlers) h.invalidate(message);
  }

  private reset(): void {
    this.gen++;
    for (const h of this.handlers) h.reset();
  }

  /** Stops listening (the connections are the caller's to close); `live` turns false. */
  close(): void {
    this.closed = true;
    this.onDown();
    this.sub.off('message', this.onMessage);
    for (const e of DOWN_EVENTS) this.sub.off(e, this.onDown);
    this.sub.off('ready', this.onReady);
  }
}

/** The `{ scope, key }` of a channel message, or null when it is not one. */
export function parseInvalidation(raw: string): TInvalidation | null {
  try {
    const v: unknown = JSON.parse(raw);
    if (
      v &&
      typeof v === 'object' &&
      typeof (v as TInvalidation).scope === 'string' &&
      typeof (v as TInvalidation).key === 'string'
    )
      return { scope: (v as TInvalidation).scope, key: (v as TInvalidation).key };
  } catch {
    // not JSON
  }
  return null;
}
