import type { ServerResponse } from 'node:http';
import { findAudit, type TAuditRow, type TDb } from '@aso/db';
import { ZAuditInputs } from '@aso/contracts';
import { formatEventId, parseEventId, type TClientMessage } from './progress.aggregator';
import { renderSseMessage, type ProgressFeeds, type TFeedMember } from './progress.feed';

/** Reconnect delay suggested to EventSource clients (ms). */
export const SSE_RETRY_MS = 3_000;

/**
 * How long a stream waits after its replay for the terminal event of an audit that the
 * database already records as finished (ms): the worker writes the row first and appends the
 * event right after. Past it the event is rebuilt from the row (e.g. the 24 h stream expired).
 */
export const TERMINAL_GRACE_MS = 2_000;

/** The apps of an audit, main first, from its stored inputs. */
export function auditAppIds(audit: Pick<TAuditRow, 'app_id' | 'inputs'>): string[] {
  const parsed = ZAuditInputs.safeParse(audit.inputs);
  if (!parsed.success) return [audit.app_id];
  return [parsed.data.main.appId, ...parsed.data.competitors.map((c) => c.appId)];
}

/** What {@link streamProgress} needs. */
export interface TProgressStreamDeps {
  db: TDb;
  /** The process's progress feeds (one per audit, shared by its clients). */
  feeds: ProgressFeeds;
  heartbeatMs: number;
  log: { warn(obj: object, msg?: string): void };
}

/**
 * Serves one audit's progress as Server-Sent Events on `res` (docs/product.md#following-progress),
 * after the caller checked ownership and hijacked the reply:
 *
 * - replays every recorded bus event, then relays live ones, through the audit's shared
 *   feed ({@link ProgressFeeds}: one `ProgressAggregator` per audit and process, fed
 *   from the start of the stream, its messages rendered once for all clients) so that
 *   resuming after `lastEventId` (a `Last-Event-ID` header or query value) sends exactly the
 *   messages that came after it, none twice and none lost;
 * - every message carries `id:` (see `formatEventId`), event `step`, `error` or `complete`
 *   and a JSON payload (contracts `ZStepEventData`, `ZErrorEventData`, `ZCompleteEventData`);
 * - a comment line every `heartbeatMs` keeps proxies from closing an idle stream;
 * - the stream ends after `complete` or `error`; an audit that is already finished replays
 *   and ends at once; one whose events expired gets its terminal event rebuilt from the row
 *   (id `0-0.1`);
 * - when the client goes away it leaves the feed (the last one releases it) and its timers
 *   are cleared.
 *
 * Returns a function that ends the stream (used on server shutdown) and a promise settled
 * when it ended.
 */
export async function streamProgress(
  deps: TProgressStreamDeps,
  audit: TAuditRow,
  lastEventId: string | null,
  res: ServerResponse,
): Promise<{ end: () => void; ended: Promise<void> }> {
  const resume = parseEventId(lastEventId);
  let closed = false;
  let member: TFeedMember | null = null;
  let grace: NodeJS.Timeout | null = null;
  let resolveEnded!: () => void;
  const ended = new Promise<void>((r) => (resolveEnded = r));

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-content-type-options': 'nosniff',
    connection: 'keep-alive',
    // nginx and similar proxies buffer responses unless told not to.
    'x-accel-buffering': 'no',
  });
  res.write(`retry: ${SSE_RETRY_MS}\n\n`);

  const heartbeat = setInterval(() => {
    if (!closed) res.write(': heartbeat\n\n');
  }, deps.heartbeatMs);

  const end = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    if (grace) clearTimeout(grace);
    member?.leave();
    member = null;
    res.end();
    resolveEnded();
  };
  res.on('close', end);
  // The client may have gone while its ownership was checked: 'close' was then already emitted.
  if (res.destroyed) end();
  if (closed) return { end, ended };

  const joined = deps.feeds.join(audit.id, auditAppIds(audit), resume, {
    write: (bytes) => {
      if (!closed) res.write(bytes);
    },
    finish: end,
  });
  member = joined;

  const fromRow = (row: TAuditRow) => {
    if (closed || joined.finished) return;
    const m: TClientMessage =
      row.status === 'done'
        ? { event: 'complete', data: { auditId: row.id } }
        : {
            event: 'error',
            data: { message: row.error ?? 'Failed to analyze app. Please try again.' },
          };
    // Written even to a client that resumed past it: a stream that ends with no event would
    // make it reconnect forever.
    res.write(renderSseMessage(formatEventId('0-0', 1), m));
    end();
  };

  try {
    await joined.ready;
  } catch (err) {
    deps.log.warn({ err, auditId: audit.id }, 'progress replay failed');
    end();
    return { end, ended };
  }

  if (!closed && !joined.finished) {
    const row = (await findAudit(deps.db, audit.id)) ?? audit;
    if (!closed && (row.status === 'done' || row.status === 'failed')) {
      if (joined.applied === 0) fromRow(row);
      else grace = setTimeout(() => fromRow(row), TERMINAL_GRACE_MS);
    }
  }
  return { end, ended };
}
