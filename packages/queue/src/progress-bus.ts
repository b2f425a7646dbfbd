import type { TRedisClient } from './redis';
import { ZBusEvent, type TBusEvent } from '@aso/contracts';

/** One recorded progress event with its Redis Stream entry id (`<ms>-<seq>`). */
export interface TProgressEntry {
  id: string;
  event: TBusEvent;
}

/** Options of {@link ProgressBus}. */
export interface TProgressBusOptions {
  /** Key prefix shared with BullMQ (`<prefix>:progress:<auditId>`). */
  prefix: string;
  /** Approximate cap of entries kept per audit stream (XADD MAXLEN ~). Default 2 000. */
  maxLen?: number;
  /**
   * Seconds a stream lives after its last append. Default 86 400 (24 h,
   * docs/product.md#how-an-audit-runs).
   */
  ttlSeconds?: number;
}

/**
 * Compares two stream entry ids (`ms-seq`, both parts unsigned decimal integers of any length)
 * numerically: negative when a < b, 0 when equal, positive when a > b. A missing or empty part
 * counts as 0 and leading zeros are ignored, so `'5'`, `'5-0'` and `'05-00'` are equal. It
 * allocates nothing (no BigInt, no split): each part is compared by its significant length,
 * then digit by digit, which is exact beyond 2^53.
 */
export function compareEntryIds(a: string, b: string): number {
  const ad = a.indexOf('-');
  const bd = b.indexOf('-');
  const aMsEnd = ad < 0 ? a.length : ad;
  const bMsEnd = bd < 0 ? b.length : bd;
  const ms = compareDigits(a, 0, aMsEnd, b, 0, bMsEnd);
  if (ms !== 0) return ms;
  const aSeq = Math.min(aMsEnd + 1, a.length);
  const bSeq = Math.min(bMsEnd + 1, b.length);
  return compareDigits(a, aSeq, a.length, b, bSeq, b.length);
}

/** Compares the decimal integers `a[as..ae)` and `b[bs..be)` (an empty range is 0). */
function compareDigits(
  a: string,
  as: number,
  ae: number,
  b: string,
  bs: number,
  be: number,
): number {
  while (as < ae && a.charCodeAt(as) === 48) as++;
  while (bs < be && b.charCodeAt(bs) === 48) bs++;
  const al = ae - as;
  const bl = be - bs;
  if (al !== bl) return al < bl ? -1 : 1;
  for (let i = 0; i < al; i++) {
    const d = a.charCodeAt(as + i) - b.charCodeAt(bs + i);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/**
 * The progress event bus, write and read side (docs/product.md#progress-events): each audit's
 * events are appended to a capped, expiring Redis Stream, and the audit id is published on ONE
 * pub/sub channel so gateways know to read. The stream is the durable record; pub/sub only wakes
 * readers up.
 */
export class ProgressBus {
  readonly channel: string;
  private readonly maxLen: number;
  private readonly ttl: number;

  /** @param redis a command connection (not one in subscriber mode). */
  constructor(
    private readonly redis: TRedisClient,
    private readonly opts: TProgressBusOptions,
  ) {
    this.channel = `${opts.prefix}:progress`;
    this.maxLen = opts.maxLen ?? 2_000;
    this.ttl = opts.ttlSeconds ?? 86_400;
  }

  /** Redis key of an audit's stream. */
  streamKey(auditId: string): string {
    return `${this.opts.prefix}:progress:${auditId}`;
  }

  /**
   * Appends `event` to the audit's stream, refreshes its expiry and publishes a wake-up.
   * Returns the new entry id. Throws when Redis refuses (the caller's job then retries).
   */
  async append(auditId: string, event: TBusEvent): Promise<string> {
    const key = this.streamKey(auditId);
    const res = await this.redis
      .multi()
      .xadd(key, 'MAXLEN', '~', this.maxLen, '*', 'e', JSON.stringify(event))
      .expire(key, this.ttl)
      .publish(this.channel, auditId)
      .exec();
    const [err, id] = res?.[0] ?? [new Error('empty MULTI reply'), null];
    if (err) throw err;
    return id as string;
  }

  /**
   * Reads the audit's entries after `afterId` (exclusive; all when omitted), oldest first.
   * Entries whose payload does not parse are skipped (they cannot come from this code).
   */
  async read(auditId: string, afterId?: string): Promise<TProgressEntry[]> {
    const start = afterId ? `(${afterId}` : '-';
    const raw = await this.redis.xrange(this.streamKey(auditId), start, '+');
    const out: TProgressEntry[] = [];
    for (const [id, fields] of raw) {
      const json = fields[1];
      if (!json) continue;
      const parsed = ZBusEvent.safeParse(JSON.parse(json));
      if (parsed.success) out.push({ id, event: parsed.data });
    }
    return out;
  }

  /** Deletes an audit's stream (tests, admin deletion). */
  async remove(auditId: string): Promise<void> {
    await this.redis.del(this.streamKey(auditId));
  }
}

interface Listener {
  lastId: string;
  /** False once unsubscribed: a read in flight must not deliver to it any more. */
  active: boolean;
  onBatch: (entries: readonly TProgressEntry[]) => void;
}

/** Index of the first of `entries` (sorted by id) whose id comes after `position`; `length` when none. */
function firstAfter(entries: readonly TProgressEntry[], position: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareEntryIds(entries[mid]!.id, position) > 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The read side for one process (docs/product.md#progress-events): ONE subscriber connection,
 * fanned out in memory to any number of listeners. A listener first receives every recorded
 * entry after its `afterId`, then live ones, each exactly once and in stream order: on every
 * wake-up the audit's stream is read from the oldest position any of its listeners still
 * needs, so events appended by several workers are never skipped even when their wake-ups
 * arrive out of order.
 *
 * Listeners at the same position are served as one group: a read costs one id comparison per
 * group (a binary search when the group is not the oldest), not one per entry and listener,
 * and every listener of a group receives the same array.
 */
export class ProgressSubscriber {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly pumps = new Map<string, Promise<void>>();
  private readonly dirty = new Set<string>();
  private started = false;

  /**
   * @param bus the bus to read streams through (its command connection).
   * @param sub a dedicated connection that this class puts into subscriber mode.
   */
  constructor(
    private readonly bus: ProgressBus,
    private readonly sub: TRedisClient,
  ) {}

  /** Subscribes to the bus channel. Idempotent. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.sub.on('message', (channel: string, auditId: string) => {
      if (channel === this.bus.channel && this.listeners.has(auditId)) this.pump(auditId);
    });
    // After a reconnect pub/sub messages may have been missed: catch every audit up.
    this.sub.on('ready', () => {
      for (const auditId of this.listeners.keys()) this.pump(auditId);
    });
    await this.sub.subscribe(this.bus.channel);
  }

  /** Number of listeners across all audits. */
  get size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  /**
   * Starts delivering the audit's entries after `afterId` (all when omitted) to `onEntry`, one
   * call per entry. Resolves once the recorded entries have been delivered; returns the
   * unsubscribe function (after it, no further entry is delivered, not even the rest of a read
   * in progress).
   */
  async listen(
    auditId: string,
    afterId: string | undefined,
    onEntry: (entry: TProgressEntry) => void,
  ): Promise<() => void> {
    const listener: Listener = {
      lastId: afterId ?? '0-0',
      active: true,
      onBatch: (entries) => {
        for (const entry of entries) {
          if (!listener.active) return;
          onEntry(entry);
        }
      },
    };
    return this.add(auditId, listener);
  }

  /**
   * Like {@link listen}, but each read delivers the listener's new entries as one array (never
   * empty, oldest first), so that a consumer can handle a burst at once (e.g. one socket
   * write). The array may be shared with other listeners: treat it as read-only.
   */
  async listenBatches(
    auditId: string,
    afterId: string | undefined,
    onBatch: (entries: readonly TProgressEntry[]) => void,
  ): Promise<() => void> {
    return this.add(auditId, { lastId: afterId ?? '0-0', active: true, onBatch });
  }

  /**
   * Reads the audit's stream once more for its listeners, as a wake-up would, and resolves
   * once what it found was delivered (a read already in flight is followed by one more). Does
   * nothing for an audit without listeners. Never rejects: a failed read is retried on the
   * next wake-up.
   */
  async refresh(auditId: string): Promise<void> {
    if (!this.listeners.has(auditId)) return;
    this.pump(auditId);
    await this.pumps.get(auditId);
  }

  private async add(auditId: string, listener: Listener): Promise<() => void> {
    let set = this.listeners.get(auditId);
    if (!set) this.listeners.set(auditId, (set = new Set()));
    set.add(listener);
    this.pump(auditId);
    await this.pumps.get(auditId);
    return () => {
      listener.active = false;
      const s = this.listeners.get(auditId);
      if (!s) return;
      s.delete(listener);
      if (s.size === 0) this.listeners.delete(auditId);
    };
  }

  /** Serialises reads per audit; a wake-up during a read schedules one more read. */
  private pump(auditId: string): void {
    if (this.pumps.has(auditId)) {
      this.dirty.add(auditId);
      return;
    }
    const run = async (): Promise<void> => {
      try {
        do {
          this.dirty.delete(auditId);
          await this.drain(auditId);
        } while (this.dirty.has(auditId));
      } finally {
        // In the same turn as the last check of `dirty`: a wake-up or a joining listener that
        // comes later finds no pump and starts its own, never one that ends without reading
        // for it (a joiner awaits the pump it found).
        this.pumps.delete(auditId);
      }
    };
    // A failed read is retried on the next wake-up or reconnect; nothing is marked delivered.
    const p = run().catch(() => undefined);
    this.pumps.set(auditId, p);
  }

  private async drain(auditId: string): Promise<void> {
    const set = this.listeners.get(auditId);
    if (!set || set.size === 0) return;
    // Only the listeners present now are served by this read: one that joins while it is in
    // flight needs older entries than it fetched, and is served by the next read (its join
    // marks the audit dirty). They are grouped by position, and the read starts at the oldest.
    const groups = new Map<string, Listener[]>();
    let from: string | undefined;
    for (const l of set) {
      const group = groups.get(l.lastId);
      if (group) {
        group.push(l);
        continue;
      }
      groups.set(l.lastId, [l]);
      if (from === undefined || compareEntryIds(l.lastId, from) < 0) from = l.lastId;
    }
    const entries = await this.bus.read(auditId, from === '0-0' ? undefined : from);
    if (entries.length === 0) return;
    const lastId = entries[entries.length - 1]!.id;
    for (const [position, group] of groups) {
      const start = position === from ? 0 : firstAfter(entries, position);
      if (start === entries.length) continue;
      const batch = start === 0 ? entries : entries.slice(start);
      for (const l of group) {
        // Skip listeners that unsubscribed while the read was in flight.
        if (!l.active) continue;
        l.lastId = lastId;
        l.onBatch(batch);
      }
    }
  }

  /** Unsubscribes and drops every listener (the connection is the caller's to close). */
  async close(): Promise<void> {
    for (const set of this.listeners.values()) for (const l of set) l.active = false;
    this.listeners.clear();
    if (this.started && this.sub.status === 'ready') {
      await this.sub.unsubscribe(this.bus.channel).catch(() => undefined);
    }
  }
}
