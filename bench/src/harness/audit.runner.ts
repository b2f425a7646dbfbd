import type { Agent } from 'node:http';
import {
  STEP_IDS,
  ZCompleteEventData,
  ZErrorEventData,
  ZStepEventData,
  type TAnalyzeRequest,
  type TStepId,
} from '@aso/contracts';
import { BenchFailure } from '../bench.types';
import type { ApiClient } from '@aso/api-client';
import type { TBenchUser } from './bench.users';
import { nowMs, openSse, type TSseConnection, type TReceivedMessage } from './sse.client';

/** The recorded apps (fixtures/SOURCES.md): two with product pages, two with lookup + reviews only. */
export const RECORDED_APPS = [
  {
    name: 'Spotify',
    appId: '324684580',
    url: 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580',
  },
  {
    name: 'Instagram',
    appId: '389801252',
    url: 'https://apps.apple.com/us/app/instagram/id389801252',
  },
  { name: 'TikTok', appId: '835599320', url: 'https://apps.apple.com/us/app/tiktok/id835599320' },
  { name: 'Rivian', appId: '1570215232', url: 'https://apps.apple.com/us/app/rivian/id1570215232' },
] as const;

/** An audit of the 4 recorded apps: Spotify with 3 competitors. */
export const FOUR_APP_AUDIT: TAnalyzeRequest = {
  appStoreUrl: RECORDED_APPS[0].url,
  competitorUrl1: RECORDED_APPS[1].url,
  competitorUrl2: RECORDED_APPS[2].url,
  competitorUrl3: RECORDED_APPS[3].url,
  keywords: 'music,podcast,radio',
};

/**
 * The progress view's estimate for an audit of 4 links: 3 min 40 s (docs/product.md#progress-view).
 */
export const SPEC_ESTIMATE_4_LINKS_MS = 220_000;

/** `GET /api/progress?auditId=` of `api`. */
export function progressUrl(api: ApiClient, auditId: string): string {
  return `${api.baseUrl}/api/progress?auditId=${encodeURIComponent(auditId)}`;
}

/** Opens the audit's progress stream as `user`. */
export function openProgress(
  api: ApiClient,
  user: TBenchUser,
  auditId: string,
  opts: { agent?: Agent; onMessage?: (m: TReceivedMessage) => void } = {},
): Promise<TSseConnection> {
  return openSse(progressUrl(api, auditId), {
    headers: { authorization: `Bearer ${user.token}` },
    agent: opts.agent,
    onMessage: opts.onMessage,
  });
}

/** Compares SSE ids written by the gateway (`<ms>-<seq>` or `<ms>-<seq>.<index>`). */
export function compareEventIds(a: string, b: string): number {
  const parse = (id: string) => {
    const m = /^(\d+)-(\d+)(?:\.(\d+))?$/.exec(id);
    if (!m) throw new BenchFailure(`SSE id '${id}' is not an event position`);
    return [BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3] ?? '0')] as const;
  };
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
}

/** What one audit's progress stream showed, after {@link checkProgress}. */
export interface TCheckedProgress {
  /** Time of each step (ms, `ended_at - started_at` of its final `done` event). */
  stepMs: Partial<Record<TStepId, number>>;
  /** The terminal `complete` message. */
  complete: TReceivedMessage;
}

/**
 * Checks one audit's stream as a client received it, and fails loudly (docs/BENCHMARKS.md) on: an
 * `error` event (the audit failed), a payload that breaks its contract, a message without an id,
 * ids repeated or out of order, a stream that did not end with `complete`, a step of the progress
 * view that never reached `done`. With `reference` (the same audit replayed afterwards), the ids
 * and payloads must be identical: nothing lost, nothing extra.
 * @throws BenchFailure naming the audit and what is wrong.
 */
export function checkProgress(
  auditId: string,
  messages: readonly TReceivedMessage[],
  reference?: readonly TReceivedMessage[],
): TCheckedProgress {
  const fail = (what: string) => new BenchFailure(`audit ${auditId}: ${what}`);
  const last = messages.at(-1);
  if (last?.event === 'error') {
    throw fail(`the audit failed: ${ZErrorEventData.parse(JSON.parse(last.data)).message}`);
  }
  if (!last || last.event !== 'complete') {
    throw fail(
      `the stream ended without 'complete' after ${messages.length} messages (last: ${last?.event ?? 'none'})`,
    );
  }
  const complete = ZCompleteEventData.parse(JSON.parse(last.data));
  if (complete.auditId !== auditId) throw fail(`'complete' names audit ${complete.auditId}`);
  const done = new Map<TStepId, { started_at: string | null; ended_at: string | null }>();
  let previous: string | null = null;
  for (const [i, m] of messages.entries()) {
    if (!m.id) throw fail(`message ${i} (${m.event}) has no id`);
    if (previous !== null && compareEventIds(previous, m.id) >= 0) {
      throw fail(`message ${i} has id ${m.id}, not after ${previous}: repeated or out of order`);
    }
    previous = m.id;
    if (m.event === 'step') {
      const step = ZStepEventData.parse(JSON.parse(m.data));
      if (step.status === 'done') done.set(step.step_id, step);
      if (step.status === 'error') throw fail(`step ${step.step_id} failed: ${step.message}`);
    } else if (i !== messages.length - 1) {
      throw fail(`'${m.event}' at position ${i} of ${messages.length}, not last`);
    }
  }
  const missing = STEP_IDS.filter((s) => !done.has(s));
  if (missing.length > 0) throw fail(`steps never done: ${missing.join(', ')}`);
  if (reference) {
    const got = messages.map((m) => `${m.id} ${m.event} ${m.data}`);
    const want = reference.map((m) => `${m.id} ${m.event} ${m.data}`);
    const gotSet = new Set(got);
    const wantSet = new Set(want);
    const lost = want.filter((w) => !gotSet.has(w));
    const extra = got.filter((g) => !wantSet.has(g));
    if (lost.length > 0 || extra.length > 0 || got.length !== want.length) {
      throw fail(
        `the live stream differs from the replay: ${lost.length} lost, ${extra.length} extra ` +
          `(first lost: ${lost[0]?.slice(0, 80) ?? '-'}; first extra: ${extra[0]?.slice(0, 80) ?? '-'})`,
      );
    }
  }
  const stepMs: Partial<Record<TStepId, number>> = {};
  for (const [id, s] of done) {
    if (s.started_at && s.ended_at) stepMs[id] = Date.parse(s.ended_at) - Date.parse(s.started_at);
  }
  return { stepMs, complete: last };
}

/** One audit, measured from the client's side. */
export interface TAuditOutcome {
  id: string;
  /** Epoch ms just before `POST /api/analyze` was sent. */
  submittedAt: number;
  /** Epoch ms when the `complete` event arrived. */
  completedAt: number;
  /** `completedAt - submittedAt` (ms). */
  wallMs: number;
  stepMs: Partial<Record<TStepId, number>>;
  messages: TReceivedMessage[];
}

/**
 * Follows audit `id` (submitted at `submittedAt`) to its end on a progress stream, then replays
 * the stream once more and checks both with {@link checkProgress}.
 * @throws BenchFailure when the audit failed, an event was lost, or it did not end within `timeoutMs`.
 */
export async function followAudit(
  api: ApiClient,
  user: TBenchUser,
  id: string,
  submittedAt: number,
  opts: { agent?: Agent; timeoutMs?: number } = {},
): Promise<TAuditOutcome> {
  const conn = await openProgress(api, user, id, { agent: opts.agent });
  const timeoutMs = opts.timeoutMs ?? 300_000;
  let timer: NodeJS.Timeout | undefined;
  const how = await Promise.race([
    conn.done,
    new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (how !== 'ended') {
    conn.close();
    throw new BenchFailure(
      `audit ${id}: the progress stream ${how === 'timeout' ? `did not end within ${timeoutMs} ms` : 'broke'} ` +
        `after ${conn.messages.length} messages`,
    );
  }
  const replay = await openProgress(api, user, id, { agent: opts.agent });
  if ((await replay.done) !== 'ended')
    throw new BenchFailure(`audit ${id}: the replayed stream broke`);
  const checked = checkProgress(id, conn.messages, replay.messages);
  const completedAt = checked.complete.receivedAt;
  return {
    id,
    submittedAt,
    completedAt,
    wallMs: completedAt - submittedAt,
    stepMs: checked.stepMs,
    messages: conn.messages,
  };
}

/** Starts an audit of `body` as `user` and follows it to `complete` (see {@link followAudit}). */
export async function runAudit(
  api: ApiClient,
  user: TBenchUser,
  body: TAnalyzeRequest,
  opts: { agent?: Agent; timeoutMs?: number } = {},
): Promise<TAuditOutcome> {
  const submittedAt = nowMs();
  const { id } = await api.analyze(user.token, body);
  return followAudit(api, user, id, submittedAt, opts);
}
