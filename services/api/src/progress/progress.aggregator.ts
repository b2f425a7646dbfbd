import {
  ANALYSIS_STEP_IDS,
  SCRAPE_STEP_IDS,
  STEP_LABELS,
  type TBusEvent,
  type TCompleteEventData,
  type TErrorEventData,
  type TProgressStep,
  type TStepEventData,
  type TStepId,
  type TStepStatus,
} from '@aso/contracts';

/**
 * One message for the SSE client: event name and payload (docs/product.md#api-calls, progress
 * stream).
 */
export type TClientMessage =
  | { event: 'step'; data: TStepEventData }
  | { event: 'error'; data: TErrorEventData }
  | { event: 'complete'; data: TCompleteEventData };

interface AppStepState {
  status: TStepStatus;
  message: string;
  startedAt: string | null;
  endedAt: string | null;
  cacheHit: boolean | undefined;
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Turns an audit's bus events (docs/product.md#progress-events) into the client's 12 progress steps
 * (docs/product.md#entities, Progress step), deterministically: replaying the same events always
 * gives the same messages, which is what makes `Last-Event-ID` resumption exact.
 *
 * - `app_step` events of the audit's apps (main + competitors) are aggregated per step id:
 *   `error` when an app's step failed (its latest state), `done` when every app finished it,
 *   `in_progress` once any app started it; `progress_pct` is the percent of apps done;
 *   `started_at` the earliest start, `ended_at` the last finish. Messages count apps
 *   ('Scraped 3 of 4 apps'; cache hits are counted on `cache_check`).
 * - A retried scrape job reports its steps again: an app's step that is `done` stays done,
 *   and a step's message is sent only when something changed.
 * - `step` events of the analysis job pass through, with the same rules. The analysis job
 *   only runs once every scrape job completed, so its first step closes any scrape step
 *   still open (a scrape job that skipped steps, e.g. on a cache hit).
 * - `error` and `complete` end the stream; later events are ignored.
 */
export class ProgressAggregator {
  private readonly apps: string[];
  private readonly perApp = new Map<string, Map<TStepId, AppStepState>>();
  private readonly analysis = new Map<TStepId, TProgressStep>();
  private readonly sent = new Map<TStepId, TProgressStep>();
  private terminal: 'complete' | 'error' | null = null;
  private entries = 0;

  /** @param appIds the audit's apps (main first); apps seen in events but not listed are added. */
  constructor(appIds: readonly string[]) {
    this.apps = [...new Set(appIds)];
  }

  /** True once `complete` or `error` was produced. */
  get finished(): boolean {
    return this.terminal !== null;
  }

  /** Number of events applied so far. */
  get applied(): number {
    return this.entries;
  }

  /** The last state sent per step, in step order (for tests and the CLI). */
  steps(): TProgressStep[] {
    return [...SCRAPE_STEP_IDS, ...ANALYSIS_STEP_IDS].flatMap((id) => {
      const s = this.sent.get(id);
      return s ? [s] : [];
    });
  }

  /** Applies one bus event; returns the client messages it produces, in order (often none or one). */
  apply(event: TBusEvent): TClientMessage[] {
    this.entries++;
    if (this.terminal) return [];
    switch (event.type) {
      case 'app_step':
        return this.applyAppStep(event);
      case 'step':
        return this.applyAnalysisStep(event.step, event.emittedAt);
      case 'error':
        this.terminal = 'error';
        return [
          {
            event: 'error',
            data: { message: event.message, ...(event.code ? { code: event.code } : {}) },
          },
        ];
      case 'complete':
        this.terminal = 'complete';
        return [{ event: 'complete', data: { auditId: event.auditId } }];
    }
  }

  private applyAppStep(event: Extract<TBusEvent, { type: 'app_step' }>): TClientMessage[] {
    // Analysis steps are the analysis job's; an app event naming one is not ours to aggregate.
    if (!SCRAPE_STEP_IDS.includes(event.step_id)) return [];
    if (!this.apps.includes(event.appId)) this.apps.push(event.appId);
    let steps = this.perApp.get(event.appId);
    if (!steps) this.perApp.set(event.appId, (steps = new Map<TStepId, AppStepState>()));
    const prev = steps.get(event.step_id);
    if (prev?.status === 'done') return [];
    const next: AppStepState = {
      status: event.status,
      message: event.message,
      startedAt: prev?.startedAt ?? (event.status === 'pending' ? null : event.at),
      endedAt: event.status === 'done' || event.status === 'error' ? event.at : null,
      cacheHit: event.cacheHit ?? prev?.cacheHit,
    };
    steps.set(event.step_id, next);
    return this.emitIfChanged(this.aggregate(event.step_id), event.emittedAt);
  }

  private applyAnalysisStep(step: TProgressStep, emittedAt: number): TClientMessage[] {
    const out: TClientMessage[] = [];
    if (ANALYSIS_STEP_IDS.includes(step.step_id)) {
      // The analysis job starts only after every app was scraped: close what is still open.
      for (const id of SCRAPE_STEP_IDS) {
        if (this.aggregate(id).status === 'done') continue;
        this.close(id, step.started_at);
        out.push(...this.emitIfChanged(this.aggregate(id), emittedAt));
      }
    }
    const prev = this.analysis.get(step.step_id);
    if (prev?.status === 'done') return out;
    // A retried analysis job reports its steps again: keep when the step first started.
    const next = prev?.started_at ? { ...step, started_at: prev.started_at } : step;
    this.analysis.set(step.step_id, next);
    out.push(...this.emitIfChanged(next, emittedAt));
    return out;
  }

  private appState(appId: string, id: TStepId): AppStepState | undefined {
    return this.perApp.get(appId)?.get(id);
  }

  private aggregate(id: TStepId): TProgressStep {
    const states = this.apps.map((a) => this.appState(a, id));
    const n = this.apps.length;
    const done = states.filter((s) => s?.status === 'done').length;
    const failed = states.find((s) => s?.status === 'error');
    const started = states.filter((s): s is AppStepState => !!s && s.status !== 'pending');
    const startedAt =
      started
        .map((s) => s.startedAt)
        .filter((t): t is string => !!t)
        .sort()[0] ?? null;
    const status: TStepStatus = failed
      ? 'error'
      : n > 0 && done === n
        ? 'done'
        : started.length > 0
          ? 'in_progress'
          : 'pending';
    const endedAt =
      status === 'done' || status === 'error'
        ? (states
            .map((s) => s?.endedAt)
            .filter((t): t is string => !!t)
            .sort()
            .at(-1) ?? null)
        : null;
    return {
      step_id: id,
      status,
      message: failed ? failed.message : this.message(id, done, n, states),
      progress_pct: n === 0 ? 0 : Math.round((done / n) * 100),
      started_at: startedAt,
      ended_at: endedAt,
    };
  }

  /** Marks step `id` done for every app that has not finished it (at `at`, ISO 8601). */
  private close(id: TStepId, at: string | null): void {
    for (const appId of this.apps) {
      let steps = this.perApp.get(appId);
      if (!steps) this.perApp.set(appId, (steps = new Map<TStepId, AppStepState>()));
      const prev = steps.get(id);
      if (prev?.status === 'done') continue;
      steps.set(id, {
        status: 'done',
        message: prev?.message ?? '',
        startedAt: prev?.startedAt ?? at,
        endedAt: at,
        cacheHit: prev?.cacheHit,
      });
    }
  }

  private message(
    id: TStepId,
    done: number,
    n: number,
    states: Array<AppStepState | undefined>,
  ): string {
    const of = `${done} of ${count(n, 'app')}`;
    switch (id) {
      case 'url_validation':
        return `Validated ${of}`;
      case 'cache_check': {
        // Cache hits are data (the scraper's `cacheHit` flag), never read from display text.
        const hits = states.filter((s) => s?.status === 'done' && s.cacheHit === true).length;
        return `Checked the cache for ${of}` + (hits > 0 ? `: ${count(hits, 'cache hit')}` : '');
      }
      case 'scrape':
        return `Scraped ${of}`;
      case 'metadata_extraction':
        return `Extracted metadata of ${of}`;
      case 'screenshot_analysis':
        return `Processed screenshots of ${of}`;
      case 'preview_video_detection':
        return `Checked preview videos of ${of}`;
      case 'in_app_events':
        return `Found in-app events of ${of}`;
      case 'ai_screenshot_analysis':
      case 'ai_structured_analysis':
      case 'ai_recommendations':
      case 'finalize':
      case 'done':
        return STEP_LABELS[id];
    }
  }

  private emitIfChanged(step: TProgressStep, emittedAt: number): TClientMessage[] {
    const prev = this.sent.get(step.step_id);
    if (
      prev &&
      prev.status === step.status &&
      prev.message === step.message &&
      prev.progress_pct === step.progress_pct &&
      prev.started_at === step.started_at &&
      prev.ended_at === step.ended_at
    ) {
      return [];
    }
    if (step.status === 'pending' && !prev) return [];
    this.sent.set(step.step_id, step);
    return [{ event: 'step', data: { ...step, emittedAt } }];
  }
}

/** Position of an SSE message: the bus entry id and its index among that entry's messages. */
export interface TEventPosition {
  entryId: string;
  index: number;
}

const EVENT_ID = /^(\d{1,20}-\d{1,20})(?:\.(\d{1,3}))?$/;

/**
 * The SSE `id:` of message `index` produced by bus entry `entryId`: the entry id itself for the
 * first (almost always the only) message, `<entryId>.<index>` for further ones.
 */
export function formatEventId(entryId: string, index: number): string {
  return index === 0 ? entryId : `${entryId}.${index}`;
}

/** Parses a `Last-Event-ID` written by {@link formatEventId}; null when it is not one. */
export function parseEventId(value: string | null | undefined): TEventPosition | null {
  const m = EVENT_ID.exec((value ?? '').trim());
  return m ? { entryId: m[1]!, index: m[2] ? Number(m[2]) : 0 } : null;
}
