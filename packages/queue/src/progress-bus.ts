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
 * Appends an event to an audit's stream, refreshes its expiry and announces it, in one atomic
 * step, so that the announcement can carry the new entry and the id of the entry before it
 * (which a subscriber needs to know that it missed nothing). KEYS[1]: the stream; ARGV: cap
 * (MAXLEN ~), expiry (s), channel, audit id, event JSON. Returns the new entry's id. The
 * channel is published to from the script: in Redis Cluster a PUBLISH reaches every node, so
 * the script needs only its stream's slot.
 */
const APPEND_SCRIPT = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local previous = '0-0'
if #last > 0 then previous = last[1][1] end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'e', ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4] .. ' ' .. previous .. ' ' .. id .. ' ' .. ARGV[5])
return id
`;

/** Name of {@link APPEND_SCRIPT} as a command of the bus's connection (ioredis `defineCommand`). */
const APPEND_COMMAND = 'asoProgressAppend';

interface TAppendCommand {
  [APPEND_COMMAND](
    key: string,
    maxLen: number,
    ttlSeconds: number,
    channel: string,
    auditId: string,
    json: string,
  ): Promise<string>;
}

/**
 * What a subscriber receives on the bus channel: `<auditId> <previousId> <id> <event JSON>`,
 * as {@link APPEND_SCRIPT} publishes it. `entry` is null for a bare `<auditId>` (a wake-up
 * without the entry, as earlier versions of the workers publish) and for anything that does
 * not parse: the subscriber then reads the stream. With `wanted`, an announcement of an audit
 * it refuses is not parsed further: null.
 */
export function parseAnnouncement(
  message: string,
  wanted: (auditId: string) => boolean = () => true,
): {
  auditId: string;
  entry: { previousId: string; entry: TProgressEntry } | null;
} | null {
  const a = message.indexOf(' ');
  const auditId = a < 0 ? message : message.slice(0, a);
  if (!wanted(auditId)) return null;
  if (a < 0) return { auditId, entry: null };
  const b = message.indexOf(' ', a + 1);
  const c = b < 0 ? -1 : message.indexOf(' ', b + 1);
  if (c < 0) return { auditId, entry: null };
  let json: unknown;
  try {
    json = JSON.parse(message.slice(c + 1));
  } catch {
    return { auditId, entry: null };
  }
  const parsed = ZBusEvent.safeParse(json);
  if (!parsed.success) return { auditId, entry: null };
  return {
    auditId,
    entry: {
      previousId: message.slice(a + 1, b),
      entry: { id: message.slice(b + 1, c), event: parsed.data },
    },
  };
}

/**
 * The progress event bus, write and read side (docs/product.md#progress-events): each audit's
 * events are appended to a capped, expiring Redis Stream and announced on ONE pub/sub channel,
 * with the entry and the id of the one before it. The stream is the durable record; a
 * subscriber that holds the previous entry takes the announced one as it is, and reads the
 * stream whenever it cannot be sure it missed nothing.
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
    // ioredis sends the script by its hash and falls back to the whole script once per server.
    if (!(APPEND_COMMAND in redis))
      redis.defineCommand(APPEND_COMMAND, { numberOfKeys: 1, lua: APPEND_SCRIPT });
  }

  /** Redis key of an audit's stream. */
  streamKey(auditId: string): string {
    return `${this.opts.prefix}:progress:${auditId}`;
  }

  /**
   * Appends `event` to the audit's stream, refreshes its expiry and announces it (see
   * {@link parseAnnouncement}), atomically. Returns the new entry id. Throws when Redis refuses
   * (the caller's job then retries).
   */
  async append(auditId: string, event: TBusEvent): Promise<string> {
    return (this.redis as unknown as TAppendCommand)[APPEND_COMMAND](
      this.streamKey(auditId),
      this.maxLen,
      this.ttl,
      this.channel,
      auditId,
      JSON.stringify(event),
    );
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
 * entry after its `afterId`, then live ones, each exactly once and in stream order. An
 * announced entry goes straight to the listeners that hold the entry before it (no read: one
 * Redis round trip less between a worker and the clients); the announcements that arrive
 * together (one socket read) are delivered as one batch. Whenever a listener may lack an entry
 * (it is behind the announced one's predecessor, a read is in flight, a bare wake-up came, the
 * connection was re-established), the audit's stream is read from the oldest position any of
 * its listeners still needs, so events appended by several workers are never skipped.
 *
 * Listeners at the same position are served as one group: a read costs one id comparison per
 * group (a binary search when the group is not the oldest), not one per entry and listener,
 * and every listener of a group receives the same array.
 */
export class ProgressSubscriber {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly pumps = new Map<string, Promise<void>>();
  private readonly dirty = new Set<string>();
  /** Announced entries not yet delivered, per audit: consecutive, after `previousId`. */
  private readonly announced = new Map<string, { previousId: string; entries: TProgressEntry[] }>();
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
    this.sub.on('message', (channel: string, message: string) => {
      if (channel !== this.bus.channel) return;
      const parsed = parseAnnouncement(message, (id) => this.listeners.has(id));
      if (parsed === null) return;
      const { auditId, entry } = parsed;
      if (entry === null || this.pumps.has(auditId)) this.pump(auditId);
      else this.collect(auditId, entry.previousId, entry.entry);
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

  /**
   * Keeps an announced entry for delivery at the end of the current turn, with those announced
   * in the same socket read; an entry that does not follow the kept ones sends those first.
   */
  private collect(auditId: string, previousId: string, entry: TProgressEntry): void {
    const kept = this.announced.get(auditId);
    if (kept && compareEntryIds(previousId, kept.entries[kept.entries.length - 1]!.id) === 0) {
      kept.entries.push(entry);
      return;
    }
    if (kept) this.deliverAnnounced(auditId);
    this.announced.set(auditId, { previousId, entries: [entry] });
    queueMicrotask(() => this.deliverAnnounced(auditId));
  }

  /**
   * Delivers the audit's kept announced entries to every listener that holds the entry before
   * them (or one of them), and reads the stream for any listener further behind.
   */
  private deliverAnnounced(auditId: string): void {
    const kept = this.announced.get(auditId);
    if (!kept) return;
    this.announced.delete(auditId);
    const set = this.listeners.get(auditId);
    if (!set) return;
    const { previousId, entries } = kept;
    const lastId = entries[entries.length - 1]!.id;
    let behind = false;
    for (const l of set) {
      if (!l.active) continue;
      const c = compareEntryIds(l.lastId, previousId);
      if (c < 0) {
        behind = true;
        continue;
      }
      const start = c === 0 ? 0 : firstAfter(entries, l.lastId);
      if (start === entries.length) continue;
      l.lastId = lastId;
      l.onBatch(start === 0 ? entries : entries.slice(start));
    }
    if (behind) this.pump(auditId);
  }

  /**
   * Serialises reads per audit; a wake-up during a read schedules one more read. Announced
   * entries still kept are delivered first, so that the read starts from where the listeners
   * really are.
   */
  private pump(auditId: string): void {
    this.deliverAnnounced(auditId);
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
    this.announced.clear();
    if (this.started && this.sub.status === 'ready') {
      await this.sub.unsubscribe(this.bus.channel).catch(() => undefined);
    }
  }
}
