import { compareEntryIds, type TProgressEntry, type ProgressSubscriber } from '@aso/queue';
import {
  formatEventId,
  ProgressAggregator,
  type TClientMessage,
  type TEventPosition,
} from './progress.aggregator';

/** One SSE message of an audit as sent: its position and its encoded bytes. */
interface TFrame {
  entryId: string;
  index: number;
  /** UTF-8 of `id: ...\nevent: ...\ndata: ...\n\n` (a view into its batch's buffer). */
  bytes: Buffer;
}

/**
 * Renders one SSE message (docs/product.md#api-calls, progress stream): `id:` (see
 * `formatEventId`), the event name, and the payload as one line of JSON.
 */
export function renderSseMessage(id: string, m: TClientMessage): string {
  return `id: ${id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;
}

/** True when the message at (`entryId`, `index`) comes after `position`. */
function isAfterPosition(entryId: string, index: number, position: TEventPosition): boolean {
  const c = compareEntryIds(entryId, position.entryId);
  return c > 0 || (c === 0 && index > position.index);
}

/** Index of the first of `frames` (in stream order) after `position`; `length` when none. */
function firstFrameAfter(frames: readonly TFrame[], position: TEventPosition): number {
  let lo = 0;
  let hi = frames.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const f = frames[mid]!;
    if (isAfterPosition(f.entryId, f.index, position)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The receiving end of a feed: one SSE response. */
export interface TFeedClient {
  /**
   * Writes whole SSE messages (one or more). The buffer is shared with the audit's other
   * clients: write it as it is, never modify it.
   */
  write(bytes: Buffer): void;
  /** Called right after the audit's terminal message (`complete` or `error`) was produced. */
  finish(): void;
}

/** A client's place in an audit's feed, as {@link ProgressFeeds.join} returns it. */
export interface TFeedMember {
  /**
   * Settles once the client was given every message recorded so far after its resume
   * position (in one write) and receives live ones from then on; right away when it left
   * first. Rejects when the feed could not subscribe to the bus.
   */
  readonly ready: Promise<void>;
  /** True once the audit's terminal message was produced. */
  readonly finished: boolean;
  /** Bus entries the audit's feed applied so far (0: its stream is empty or has expired). */
  readonly applied: number;
  /** Leaves the feed; idempotent. The last member to leave releases the audit's feed. */
  leave(): void;
}

class FeedMember implements TFeedMember {
  ready: Promise<void> = Promise.resolve();
  left = false;

  /**
   * @param resume the last position the client has; reset to null once a message after it was
   * written (every later message is after it too).
   */
  constructor(
    private readonly feed: AuditFeed,
    readonly client: TFeedClient,
    public resume: TEventPosition | null,
  ) {}

  get finished(): boolean {
    return this.feed.finished;
  }

  get applied(): number {
    return this.feed.applied;
  }

  leave(): void {
    if (this.left) return;
    this.left = true;
    this.feed.leave(this);
  }
}

/**
 * One audit's progress in this process: ONE bus listener and ONE {@link ProgressAggregator}
 * fed from the start of the stream, whatever the number of clients. Each bus read is
 * aggregated once, its messages are rendered and encoded once into one buffer, and that
 * buffer is written as it is to every client (one write per client per read). Every message
 * is kept (a view into its batch's buffer) so that a client that joins later gets the replay
 * after its resume position from memory.
 */
class AuditFeed {
  private readonly agg: ProgressAggregator;
  private frames: TFrame[] = [];
  private readonly live = new Set<FeedMember>();
  private members = 0;
  private unlisten: (() => void) | null = null;
  private released = false;
  /** Settles once the recorded entries were read (the feed's own bus listener is in place). */
  readonly started: Promise<void>;

  constructor(
    private readonly auditId: string,
    appIds: readonly string[],
    private readonly progress: ProgressSubscriber,
    private readonly onReleased: (feed: AuditFeed) => void,
  ) {
    this.agg = new ProgressAggregator(appIds);
    this.started = progress
      .listenBatches(auditId, undefined, (entries) => this.onEntries(entries))
      .then((stop) => {
        if (this.released) stop();
        else this.unlisten = stop;
      });
    // A feed that could not subscribe is forgotten, so that the next client starts a new one.
    this.started.catch(() => this.onReleased(this));
  }

  get finished(): boolean {
    return this.agg.finished;
  }

  get applied(): number {
    return this.agg.applied;
  }

  /** Adds a client; see {@link ProgressFeeds.join}. `refresh`: read the stream once more first. */
  join(client: TFeedClient, resume: TEventPosition | null, refresh: boolean): FeedMember {
    const member = new FeedMember(this, client, resume);
    this.members++;
    member.ready = (async () => {
      await this.started;
      // The feed is kept current by wake-ups; a joining client still reads up to now, as if
      // it had its own listener, so that what it gets first does not depend on a wake-up in
      // flight.
      if (refresh) await this.progress.refresh(this.auditId);
      if (!member.left) this.admit(member);
    })();
    return member;
  }

  /**
   * Replays to `member` what it has not seen, in one write, and makes it live (synchronously).
   * A member with nothing left to see of a finished audit is sent its terminal message again.
   */
  private admit(member: FeedMember): void {
    const start = member.resume ? firstFrameAfter(this.frames, member.resume) : 0;
    if (start < this.frames.length) {
      const rest = this.frames.slice(start);
      member.client.write(
        rest.length === 1 ? rest[0]!.bytes : Buffer.concat(rest.map((f) => f.bytes)),
      );
      member.resume = null;
    } else if (this.agg.finished && this.frames.length > 0) {
      // The client resumed at or past the end of a finished audit: it gets the terminal event
      // again, so that it stops reconnecting instead of meeting a stream that ends silently.
      member.client.write(this.frames[this.frames.length - 1]!.bytes);
    }
    this.live.add(member);
    if (this.agg.finished) member.client.finish();
  }

  private onEntries(entries: readonly TProgressEntry[]): void {
    if (this.released || this.agg.finished) return;
    const texts: string[] = [];
    const batch: TFrame[] = [];
    const offsets: number[] = [];
    let size = 0;
    for (const entry of entries) {
      const messages = this.agg.apply(entry.event);
      for (let index = 0; index < messages.length; index++) {
        const text = renderSseMessage(formatEventId(entry.id, index), messages[index]!);
        texts.push(text);
        offsets.push(size);
        size += Buffer.byteLength(text);
        batch.push({ entryId: entry.id, index, bytes: EMPTY });
      }
    }
    if (batch.length === 0) return;
    const bytes = Buffer.from(texts.join(''));
    for (let i = 0; i < batch.length; i++) {
      batch[i]!.bytes = bytes.subarray(offsets[i], offsets[i + 1] ?? size);
      this.frames.push(batch[i]!);
    }
    for (const m of this.live) {
      if (m.resume === null) {
        m.client.write(bytes);
        continue;
      }
      // A client that resumed ahead of this feed skips what it already has.
      const i = firstFrameAfter(batch, m.resume);
      if (i === batch.length) continue;
      m.client.write(i === 0 ? bytes : bytes.subarray(offsets[i]));
      m.resume = null;
    }
    if (this.agg.finished) for (const m of this.live) m.client.finish();
  }

  /** Called by a member leaving; the last one releases the feed. */
  leave(member: FeedMember): void {
    this.live.delete(member);
    this.members--;
    if (this.members === 0) this.release();
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    this.unlisten?.();
    this.unlisten = null;
    this.frames = [];
    this.onReleased(this);
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * The gateway's progress feeds (docs/product.md#following-progress and #progress-events): at most
 * one {@link AuditFeed} per audit in this process, shared by every SSE client of that audit,
 * created by its first client and released (bus listener, aggregator state and messages dropped)
 * when its last client leaves. A client only differs from the others by its resume position
 * (`Last-Event-ID`): it is never sent messages at or before it.
 */
export class ProgressFeeds {
  private readonly feeds = new Map<string, AuditFeed>();

  /** @param progress the process's one bus subscriber. */
  constructor(private readonly progress: ProgressSubscriber) {}

  /** Number of audits with a feed (each has at least one client). */
  get size(): number {
    return this.feeds.size;
  }

  /**
   * Adds `client` to the audit's feed (creating it, with the audit's apps `appIds`, main
   * first, when it is the first client). Once `ready` settles the client has been written
   * every message after `resume` (all when null) recorded so far, then gets every later one,
   * each exactly once and in order, and `finish()` right after the terminal one. The caller
   * must call `leave()` when the client goes away (also after `finish`).
   */
  join(
    auditId: string,
    appIds: readonly string[],
    resume: TEventPosition | null,
    client: TFeedClient,
  ): TFeedMember {
    let feed = this.feeds.get(auditId);
    const existed = feed !== undefined;
    if (!feed) {
      feed = new AuditFeed(auditId, appIds, this.progress, (f) => {
        if (this.feeds.get(auditId) === f) this.feeds.delete(auditId);
      });
      this.feeds.set(auditId, feed);
    }
    return feed.join(client, resume, existed);
  }
}
