import type { Redis } from 'ioredis';
import { ZBusEvent, type TBusEvent } from '@aso/contracts';

/** One recorded progress event with its Redis Stream entry id (`<ms>-<seq>`). */
export interface ProgressEntry {
  id: string;
  event: TBusEvent;
}

/** Options of {@link ProgressBus}. */
export interface ProgressBusOptions {
  /** Key prefix shared with BullMQ (`<prefix>:progress:<auditId>`). */
  prefix: string;
  /** Approximate cap of entries kept per audit stream (XADD MAXLEN ~). Default 2 000. */
  maxLen?: number;
  /** Seconds a stream lives after its last append. Default 86 400 (24 h, DESIGN section 2). */
  ttlSeconds?: number;
}

/** Compares two stream entry ids (`ms-seq`) numerically: negative when a < b. */
export function compareEntryIds(a: string, b: string): number {
  const [am = '0', as = '0'] = a.split('-');
  const [bm = '0', bs = '0'] = b.split('-');
  const d = BigInt(am) - BigInt(bm);
  if (d !== 0n) return d < 0n ? -1 : 1;
  const s = BigInt(as) - BigInt(bs);
  return s === 0n ? 0 : s < 0n ? -1 : 1;
}

/**
 * The progress event bus, write and read side (DESIGN section 2, point 3): each audit's events
 * are appended to a capped, expiring Redis Stream, and the audit id is published on ONE
 * pub/sub channel so gateways know to read. The stream is the durable record; pub/sub only
 * wakes readers up.
 */
export class ProgressBus {
  readonly channel: string;
  private readonly maxLen: number;
  private readonly ttl: number;

  /** @param redis a command connection (not one in subscriber mode). */
  constructor(
    private readonly redis: Redis,
    private readonly opts: ProgressBusOptions,
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
  async read(auditId: string, afterId?: string): Promise<ProgressEntry[]> {
    const start = afterId ? `(${afterId}` : '-';
    const raw = await this.redis.xrange(this.streamKey(auditId), start, '+');
    const out: ProgressEntry[] = [];
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
  onEntry: (entry: ProgressEntry) => void;
}

/**
 * The read side for one process (DESIGN section 2, point 3): ONE subscriber connection,
 * fanned out in memory to any number of listeners (SSE clients). A listener first receives
 * every recorded entry after its `afterId`, then live ones, each exactly once and in stream
 * order: on every wake-up the audit's stream is read from the oldest position any of its
 * listeners still needs, so events appended by several workers are never skipped even when
 * their wake-ups arrive out of order.
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
    private readonly sub: Redis,
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
   * Starts delivering the audit's entries after `afterId` (all when omitted) to `onEntry`.
   * Resolves once the recorded entries have been delivered; returns the unsubscribe function.
   */
  async listen(
    auditId: string,
    afterId: string | undefined,
    onEntry: (entry: ProgressEntry) => void,
  ): Promise<() => void> {
    const listener: Listener = { lastId: afterId ?? '0-0', onEntry };
    let set = this.listeners.get(auditId);
    if (!set) this.listeners.set(auditId, (set = new Set()));
    set.add(listener);
    this.pump(auditId);
    await this.pumps.get(auditId);
    return () => {
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
      do {
        this.dirty.delete(auditId);
        await this.drain(auditId);
      } while (this.dirty.has(auditId));
    };
    let failed = false;
    const p = run()
      .catch(() => {
        // A failed read is retried on the next wake-up or reconnect; nothing is marked delivered.
        failed = true;
      })
      .finally(() => {
        this.pumps.delete(auditId);
        // A wake-up that arrived after the last read but before this cleanup found the pump
        // still registered and only marked the audit dirty: read once more for it.
        if (!failed && this.dirty.has(auditId)) this.pump(auditId);
      });
    this.pumps.set(auditId, p);
  }

  private async drain(auditId: string): Promise<void> {
    const set = this.listeners.get(auditId);
    if (!set || set.size === 0) return;
    // Only the listeners present now are served by this read: one that joins while it is in
    // flight needs older entries than it fetched, and is served by the next read (its join
    // marks the audit dirty).
    const targets = [...set];
    let from: string | undefined;
    for (const l of targets) if (!from || compareEntryIds(l.lastId, from) < 0) from = l.lastId;
    const entries = await this.bus.read(auditId, from === '0-0' ? undefined : from);
    for (const entry of entries) {
      for (const l of targets) {
        // Skip listeners that unsubscribed while the read was in flight.
        if (set.has(l) && compareEntryIds(entry.id, l.lastId) > 0) {
          l.lastId = entry.id;
          l.onEntry(entry);
        }
      }
    }
  }

  /** Unsubscribes and drops every listener (the connection is the caller's to close). */
  async close(): Promise<void> {
    this.listeners.clear();
    if (this.started && this.sub.status === 'ready') {
      await this.sub.unsubscribe(this.bus.channel).catch(() => undefined);
    }
  }
}
