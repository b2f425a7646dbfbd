import { QUEUES, renderJobId, ZRenderPdfJob, type TRenderPdfJob } from './catalog';
import type { Producers } from './producer';
import type { TRedisClient } from './redis';

/**
 * Per-user render lines (docs/product.md#pdf-reports): fair PDF rendering on the one BullMQ
 * `render` queue. Each user has at most ONE `render-pdf` job in BullMQ at a time (their
 * "current" render); the user's other renders wait in a short line of their own in Redis, and
 * the next one is added to BullMQ when the current one ends. BullMQ serves its waiting jobs
 * first in, first out, so users take turns: one user's many PDFs delay another's first by at
 * most one render. BullMQ's open-source edition has no per-group concurrency (a BullMQ Pro
 * feature), hence the line; everything else (ordering across users, retries, stalls, locks)
 * stays BullMQ's.
 *
 * Two keys per user, in one hash slot (`{userId}` tag) so the scripts also run on a Redis
 * Cluster: `current` holds the user's render in BullMQ (its payload as JSON), `waiting` the
 * list of the renders behind it (payloads, first in first out). Every change is one Lua script
 * (atomic), so two api replicas and the render worker never both take the user's turn.
 */

/** Safety expiry of a user's line keys (ms), renewed by every change: a line nobody touches for an hour is dropped. */
export const RENDER_LINE_TTL_MS = 3_600_000;

/** The Redis keys of `userId`'s render line under BullMQ prefix `prefix`. */
export function renderLineKeys(
  prefix: string,
  userId: string,
): { current: string; waiting: string } {
  return {
    current: `${prefix}:render-line:{${userId}}:current`,
    waiting: `${prefix}:render-line:{${userId}}:waiting`,
  };
}

/**
 * The one text of a render in the line (fixed key order), so the same render asked twice is
 * found in the line rather than lined twice.
 */
export function renderLineItem(data: TRenderPdfJob): string {
  return JSON.stringify({
    kind: data.kind,
    subjectId: data.subjectId,
    userId: data.userId,
    version: data.version,
  });
}

const parseItem = (text: string): TRenderPdfJob => ZRenderPdfJob.parse(JSON.parse(text));

/** What {@link claimRenderTurn} answers. */
export type TRenderClaim =
  /** The user's turn is this render's: its job is (or is to be) in BullMQ. */
  | { status: 'run' }
  /** Waiting in the user's line, `position` renders of the same user before it (0: next). */
  | { status: 'lined'; position: number }
  /** The line is full: `lined` renders already wait behind the current one. */
  | { status: 'full'; lined: number };

// KEYS: current, waiting. ARGV: item, max waiting, ttl ms.
const CLAIM = `
local cur = redis.call('GET', KEYS[1])
if (not cur) or cur == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  return {'run', 0}
end
local pos = redis.call('LPOS', KEYS[2], ARGV[1])
if pos then return {'lined', pos} end
local n = redis.call('LLEN', KEYS[2])
if n >= tonumber(ARGV[2]) then return {'full', n} end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'lined', n}
`;

// KEYS: current, waiting. ARGV: finished item, ttl ms. Answers the next item or false.
const ADVANCE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
local nxt = redis.call('LPOP', KEYS[2])
if nxt then
  redis.call('SET', KEYS[1], nxt, 'PX', ARGV[2])
  return nxt
end
redis.call('DEL', KEYS[1])
return false
`;

/**
 * Takes the user's turn for render `data`, or places it in the user's line. Idempotent: the
 * same render asked again answers `run` while it is the current one and its place while it
 * waits (never lined twice).
 *
 * @param maxWaiting renders that may wait behind the current one (at least 0).
 * @throws when Redis does not answer (the caller's 503).
 */
export async function claimRenderTurn(
  redis: TRedisClient,
  prefix: string,
  data: TRenderPdfJob,
  maxWaiting: number,
): Promise<TRenderClaim> {
  const keys = renderLineKeys(prefix, data.userId);
  const [status, n] = (await redis.eval(
    CLAIM,
    2,
    keys.current,
    keys.waiting,
    renderLineItem(data),
    String(Math.max(0, maxWaiting)),
    String(RENDER_LINE_TTL_MS),
  )) as [string, number];
  if (status === 'run') return { status: 'run' };
  if (status === 'lined') return { status: 'lined', position: Number(n) };
  return { status: 'full', lined: Number(n) };
}

/**
 * Ends the user's turn of render `finished` (rendered, failed for good, or withdrawn) and
 * gives it to the next render of the user's line, answered so the caller adds its job to
 * BullMQ; undefined when the line is empty (the user's turn is free) or when `finished` was
 * not the current render any more (someone else advanced the line already).
 */
export async function advanceRenderLine(
  redis: TRedisClient,
  prefix: string,
  finished: TRenderPdfJob,
): Promise<TRenderPdfJob | undefined> {
  const keys = renderLineKeys(prefix, finished.userId);
  const next = (await redis.eval(
    ADVANCE,
    2,
    keys.current,
    keys.waiting,
    renderLineItem(finished),
    String(RENDER_LINE_TTL_MS),
  )) as string | null;
  return next ? parseItem(next) : undefined;
}

/** Takes render `data` out of its user's line (its requests gave up waiting); true if it was there. */
export async function withdrawFromRenderLine(
  redis: TRedisClient,
  prefix: string,
  data: TRenderPdfJob,
): Promise<boolean> {
  const removed = await redis.lrem(
    renderLineKeys(prefix, data.userId).waiting,
    0,
    renderLineItem(data),
  );
  return removed > 0;
}

/** Where a user's line stands: the current render, and the place of `data` in the line (null: not in it). */
export async function renderLineState(
  redis: TRedisClient,
  prefix: string,
  data: TRenderPdfJob,
): Promise<{ current: TRenderPdfJob | undefined; position: number | null }> {
  const keys = renderLineKeys(prefix, data.userId);
  const [current, position] = await Promise.all([
    redis.get(keys.current),
    redis.lpos(keys.waiting, renderLineItem(data)),
  ]);
  return { current: current ? parseItem(current) : undefined, position };
}

/** True when `a` and `b` are the same render (same job id). */
export const sameRender = (a: TRenderPdfJob, b: TRenderPdfJob): boolean =>
  a.userId === b.userId && renderJobId(a) === renderJobId(b);

/** Where a waiting render stands, as {@link queuedBehind} reads it. */
export type TRenderPlace =
  /** Rendering now (its job is active, or waiting out a retry's backoff). */
  | { at: 'rendering' }
  /** Its job waits in BullMQ, `waitingAhead` jobs (other users' turns) before it. */
  | { at: 'queue'; waitingAhead: number }
  /**
   * In its user's line at `position` (0: next); the user's current render is at `current`
   * (`rendering`, or in the queue with jobs before it).
   */
  | { at: 'line'; position: number; current: TRenderPlace & { at: 'rendering' | 'queue' } };

/**
 * Renders that start before this one ("queued behind N" in the web app,
 * docs/product.md#pdf-reports): the queued jobs ahead of it; for one in its user's line, those
 * ahead of the user's current render, that render itself and the user's renders lined before
 * it. A lower bound: other users who join meanwhile take their turns in between too.
 */
export function queuedBehind(place: TRenderPlace): number {
  if (place.at === 'rendering') return 0;
  if (place.at === 'queue') return place.waitingAhead;
  return queuedBehind(place.current) + 1 + place.position;
}

/** Most waiting jobs read to place a render in the queue: past this many it says this many. */
export const QUEUE_SCAN_MAX = 500;

/**
 * Ends the user's turn of render `finished` and adds the job of the next render of the user's
 * line to the `render` queue (its deterministic job id: adding it twice adds it once). Answers
 * the render handed the turn, if any.
 *
 * @throws when Redis does not answer.
 */
export async function handOnRenderTurn(
  producers: Producers,
  redis: TRedisClient,
  finished: TRenderPdfJob,
): Promise<TRenderPdfJob | undefined> {
  const next = await advanceRenderLine(redis, producers.prefix, finished);
  if (next) await producers.add('render-pdf', next, { jobId: renderJobId(next) });
  return next;
}

/**
 * Makes sure the user's current render is really on its way, for a caller waiting in the
 * line: a current render whose job has ended (completed and removed, or failed) hands the
 * turn on; one whose job is missing and whose PDF was not stored (its job was lost between
 * the turn and the add, e.g. a process killed there) is queued again. `isStored` tells
 * whether the PDF of a render's version is stored.
 */
export async function repairRenderTurn(
  producers: Producers,
  redis: TRedisClient,
  userId: string,
  isStored: (data: TRenderPdfJob) => Promise<boolean>,
): Promise<void> {
  const text = await redis.get(renderLineKeys(producers.prefix, userId).current);
  if (!text) return;
  const current = parseItem(text);
  const state = await producers.queue(QUEUES.render).getJobState(renderJobId(current));
  if (state === 'completed' || state === 'failed') {
    await handOnRenderTurn(producers, redis, current);
  } else if (state === 'unknown') {
    if (await isStored(current)) await handOnRenderTurn(producers, redis, current);
    else await producers.add('render-pdf', current, { jobId: renderJobId(current) });
  }
}

/**
 * Where render `data` stands now, or null when it is neither the user's current render nor
 * in the user's line (not asked for, finished, or withdrawn).
 */
export async function renderPlace(
  producers: Producers,
  redis: TRedisClient,
  data: TRenderPdfJob,
): Promise<TRenderPlace | null> {
  const { current, position } = await renderLineState(redis, producers.prefix, data);
  if (!current) return null;
  const queue = producers.queue(QUEUES.render);
  const placeOf = async (
    render: TRenderPdfJob,
  ): Promise<TRenderPlace & { at: 'rendering' | 'queue' }> => {
    const id = renderJobId(render);
    const state = await queue.getJobState(id);
    // Delayed: waiting out a retry's backoff, still this render's turn.
    if (state === 'active' || state === 'delayed') return { at: 'rendering' };
    // Not added yet (the turn was just taken) or just ended: nothing before it.
    if (state !== 'waiting' && state !== 'prioritized') return { at: 'queue', waitingAhead: 0 };
    // Oldest first: BullMQ takes waiting jobs in this order.
    const waiting = await queue.getJobs(['waiting'], 0, QUEUE_SCAN_MAX - 1, true);
    const index = waiting.findIndex((job) => job.id === id);
    return { at: 'queue', waitingAhead: index < 0 ? QUEUE_SCAN_MAX : index };
  };
  if (sameRender(current, data)) return placeOf(current);
  if (position === null) return null;
  return { at: 'line', position, current: await placeOf(current) };
}
