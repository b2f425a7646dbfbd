import type { ServerResponse } from 'node:http';
import { compareEntryIds, type ProgressEntry, type ProgressSubscriber } from '@aso/queue';
import { findAudit, type AuditRow, type Db } from '@aso/db';
import { ZAuditInputs } from '@aso/contracts';
import {
  formatEventId,
  parseEventId,
  ProgressAggregator,
  type TClientMessage,
  type TEventPosition,
} from './progress.aggregator';

/** Reconnect delay suggested to EventSource clients (ms). */
export const SSE_RETRY_MS = 3_000;

/**
 * How long a stream waits after its replay for the terminal event of an audit that the
 * database already records as finished (ms): the worker writes the row first and appends the
 * event right after. Past it the event is rebuilt from the row (e.g. the 24 h stream expired).
 */
export const TERMINAL_GRACE_MS = 2_000;

/** True when message `id` comes after the resume position (or there is none). */
function isAfter(entryId: string, index: number, resume: TEventPosition | null): boolean {
  if (!resume) return true;
  const c = compareEntryIds(entryId, resume.entryId);
  return c > 0 || (c === 0 && index > resume.index);
}

/** The apps of an audit, main first, from its stored inputs. */
export function auditAppIds(audit: Pick<AuditRow, 'app_id' | 'inputs'>): string[] {
  const parsed = ZAuditInputs.safeParse(audit.inputs);
  if (!parsed.success) return [audit.app_id];
  return [parsed.data.main.appId, ...parsed.data.competitors.map((c) => c.appId)];
}

/** What {@link streamProgress} needs. */
export interface ProgressStreamDeps {
  db: Db;
  progress: ProgressSubscriber;
  heartbeatMs: number;
  log: { warn(obj: object, msg?: string): void };
}

/**
 * Serves one audit's progress as Server-Sent Events on `res` (DESIGN section 2, point 2),
 * after the caller checked ownership and hijacked the reply:
 *
 * - replays every recorded bus event, then relays live ones, through one
 *   {@link ProgressAggregator} fed from the start of the stream so that resuming after
 *   `lastEventId` (a `Last-Event-ID` header or query value) sends exactly the messages that
 *   came after it, none twice and none lost;
 * - every message carries `id:` (see `formatEventId`), event `step`, `error` or `complete`
 *   and a JSON payload (contracts `ZStepEventData`, `ZErrorEventData`, `ZCompleteEventData`);
 * - a comment line every `heartbeatMs` keeps proxies from closing an idle stream;
 * - the stream ends after `complete` or `error`; an audit that is already finished replays
 *   and ends at once; one whose events expired gets its terminal event rebuilt from the row
 *   (id `0-0.1`);
 * - when the client goes away the listener and timers are released.
 *
 * Returns a function that ends the stream (used on server shutdown) and a promise settled
 * when it ended.
 */
export async function streamProgress(
  deps: ProgressStreamDeps,
  audit: AuditRow,
  lastEventId: string | null,
  res: ServerResponse,
): Promise<{ end: () => void; ended: Promise<void> }> {
  const resume = parseEventId(lastEventId);
  const agg = new ProgressAggregator(auditAppIds(audit));
  let closed = false;
  let unlisten: (() => void) | null = null;
  let grace: NodeJS.Timeout | null = null;
  let resolveEnded!: () => void;
  const ended = new Promise<void>((r) => (resolveEnded = r));

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
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
    unlisten?.();
    unlisten = null;
    res.end();
    resolveEnded();
  };
  res.on('close', end);

  const write = (id: string, m: TClientMessage) => {
    res.write(`id: ${id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`);
  };

  const onEntry = (entry: ProgressEntry) => {
    if (closed) return;
    agg.apply(entry.event).forEach((m, index) => {
      if (isAfter(entry.id, index, resume)) write(formatEventId(entry.id, index), m);
    });
    if (agg.finished) end();
  };

  const fromRow = (row: AuditRow) => {
    if (closed || agg.finished) return;
    const m: TClientMessage =
      row.status === 'done'
        ? { event: 'complete', data: { auditId: row.id } }
        : {
            event: 'error',
            data: { message: row.error ?? 'Failed to analyze app. Please try again.' },
          };
    if (isAfter('0-0', 1, resume)) write(formatEventId('0-0', 1), m);
    end();
  };

  try {
    const stop = await deps.progress.listen(audit.id, undefined, onEntry);
    if (closed) stop();
    else unlisten = stop;
  } catch (err) {
    deps.log.warn({ err, auditId: audit.id }, 'progress replay failed');
    end();
    return { end, ended };
  }

  if (!closed && !agg.finished) {
    const row = (await findAudit(deps.db, audit.id)) ?? audit;
    if (row.status === 'done' || row.status === 'failed') {
      if (agg.applied === 0) fromRow(row);
      else grace = setTimeout(() => fromRow(row), TERMINAL_GRACE_MS);
    }
  }
  return { end, ended };
}
