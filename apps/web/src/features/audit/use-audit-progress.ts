/**
 * Follows an audit's progress stream `GET /api/progress?auditId={id}` (docs/product.md#api-calls,
 * docs/product.md#how-an-audit-runs) with fetch, so the bearer header is sent, and
 * `eventsource-parser` (the SSE parser the API client of `@aso/api-client` uses too).
 * - `step` events update that step; `error` ends the run with the server's message;
 *   `complete` ends it successfully.
 * - A payload that fails to parse and a connection error are only logged
 *   (docs/product.md#api-calls).
 * - A dropped connection reconnects with `Last-Event-ID`, so the gateway resumes after the
 *   last event seen: the audit is not restarted and no step is repeated.
 * - An answer 4xx (other than 429) on connect is final (e.g. not the caller's audit).
 */
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import { useEffect, useReducer, useRef } from 'react';
import { ZCompleteEventData, ZErrorEventData, ZStepEventData } from '@aso/contracts';
import { ApiError, authHeaders } from '@/lib/api';
import { initialSteps, stepsReducer, type TStepsState } from '@/lib/progress-steps';

export type { TStepsState };

/** Callbacks of {@link useAuditProgress}. */
export interface TProgressHandlers {
  onComplete: (auditId: string) => void;
  /** The server's message (error event), or the connect failure's text. */
  onError: (message: string) => void;
}

/** Media type of a Server-Sent Events answer. */
const EVENT_STREAM = 'text/event-stream';

class FatalStreamError extends Error {}
class RetriableStreamError extends Error {}

/** Reconnect delay after the n-th consecutive failure: 1 s doubling, at most 10 s. */
function reconnectDelayMs(failures: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failures - 1), 10_000);
}

/** Subscribes to the audit's progress while mounted; returns the steps. */
export function useAuditProgress(auditId: string, handlers: TProgressHandlers): TStepsState {
  const [steps, dispatch] = useReducer(stepsReducer, undefined, initialSteps);
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });

  useEffect(() => {
    const ctrl = new AbortController();
    let finished = false;
    let failures = 0;
    const finish = (fn: () => void) => {
      if (finished) return;
      finished = true;
      ctrl.abort();
      fn();
    };

    const url = `/api/progress?auditId=${encodeURIComponent(auditId)}`;
    let lastEventId: string | undefined;

    /** Opens the stream once; resolves when the server closes it. */
    const connect = async () => {
      const res = await fetch(url, {
        signal: ctrl.signal,
        credentials: 'include',
        headers: {
          ...authHeaders(),
          Accept: EVENT_STREAM,
          ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
        },
      });
      if (!res.ok || !res.headers.get('content-type')?.startsWith(EVENT_STREAM)) {
        const text = await res.text().catch(() => '');
        const refused = new ApiError(res.status, text, res.statusText);
        const message = refused.body?.message ?? refused.message;
        if (res.status >= 400 && res.status < 500 && res.status !== 429)
          throw new FatalStreamError(message);
        throw new RetriableStreamError(message);
      }
      failures = 0;
      if (!res.body) return;
      const reader = res.body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream())
        .getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || finished) return;
        if (value.id) lastEventId = value.id;
        onMessage(value);
      }
    };

    const onMessage = (msg: EventSourceMessage) => {
      try {
        switch (msg.event ?? 'message') {
          case 'step':
            dispatch(ZStepEventData.parse(JSON.parse(msg.data)));
            break;
          case 'error': {
            const data = ZErrorEventData.parse(JSON.parse(msg.data));
            finish(() => handlersRef.current.onError(data.message));
            break;
          }
          case 'complete': {
            const data = ZCompleteEventData.parse(JSON.parse(msg.data));
            finish(() => handlersRef.current.onComplete(data.auditId || auditId));
            break;
          }
          default:
            break;
        }
      } catch (err) {
        console.warn('progress event could not be parsed', msg.event, err);
      }
    };

    const follow = async () => {
      while (!finished) {
        try {
          await connect();
          // The gateway closes only after a terminal event; any other close is a dropped link.
          if (!finished) throw new RetriableStreamError('progress stream closed early');
        } catch (err) {
          if (ctrl.signal.aborted || finished) return;
          if (err instanceof FatalStreamError) throw err;
          failures += 1;
          console.warn('progress stream interrupted; resuming', err);
          await new Promise((r) => setTimeout(r, reconnectDelayMs(failures)));
        }
      }
    };
    follow().catch((err: unknown) => {
      if (ctrl.signal.aborted) return;
      finish(() => handlersRef.current.onError(err instanceof Error ? err.message : String(err)));
    });

    return () => {
      finished = true;
      ctrl.abort();
    };
  }, [auditId]);

  return steps;
}
