import type { IncomingHttpHeaders } from 'node:http';

/**
 * A fault to inject into an answer. Set per request by headers or query parameters, or for
 * the whole server by rules.
 *
 * | field        | header                  | query               |
 * |--------------|-------------------------|---------------------|
 * | delayMs      | x-replay-delay-ms       | replayDelayMs       |
 * | status       | x-replay-status         | replayStatus        |
 * | failTimes    | x-replay-fail-times     | replayFailTimes     |
 * | truncate     | x-replay-truncate       | replayTruncate      |
 * | malformed    | x-replay-malformed      | replayMalformed     |
 * | retryAfter   | x-replay-retry-after    | replayRetryAfter    |
 * | redirectTo   | x-replay-redirect       | replayRedirect      |
 * | key          | x-replay-fault-key      | replayFaultKey      |
 *
 * `failTimes` = N makes the fault apply to the first N matching requests of the same path
 * (and same fault and key), after which the path answers normally: "429 then success" is
 * `status: 429, failTimes: 1`. Without it the fault applies to every request. `key`
 * namespaces those counters (one per test).
 */
export interface TReplayFault {
  /** Delay before answering, ms. */
  delayMs?: number;
  /** HTTP status to answer instead of the recording (e.g. 429, 500, 503). */
  status?: number;
  /** Apply the fault to the first N requests per path only. */
  failTimes?: number;
  /** Send half the body, then close the connection (Content-Length announces the whole). */
  truncate?: boolean;
  /** Send a broken body: cut JSON, or a page whose layout JSON is cut. */
  malformed?: boolean;
  /** Retry-After header value in seconds, with `status`. */
  retryAfter?: number;
  /** Answer 302 with this Location. */
  redirectTo?: string;
  /** Namespace of the failTimes counters. */
  key?: string;
}

/** A server-wide fault: applies to requests whose path (with query) contains `pathIncludes`. */
export interface TReplayFaultRule extends TReplayFault {
  pathIncludes?: string;
}

const FIELDS: Array<[keyof TReplayFault, string, string, 'number' | 'boolean' | 'string']> = [
  ['delayMs', 'x-replay-delay-ms', 'replayDelayMs', 'number'],
  ['status', 'x-replay-status', 'replayStatus', 'number'],
  ['failTimes', 'x-replay-fail-times', 'replayFailTimes', 'number'],
  ['truncate', 'x-replay-truncate', 'replayTruncate', 'boolean'],
  ['malformed', 'x-replay-malformed', 'replayMalformed', 'boolean'],
  ['retryAfter', 'x-replay-retry-after', 'replayRetryAfter', 'number'],
  ['redirectTo', 'x-replay-redirect', 'replayRedirect', 'string'],
  ['key', 'x-replay-fault-key', 'replayFaultKey', 'string'],
];

/** Query parameter names of faults; they are not part of the path a counter is kept for. */
export const FAULT_QUERY_PARAMS: ReadonlySet<string> = new Set(FIELDS.map((f) => f[2]));

/**
 * Reads a fault from request headers and query parameters (query wins). Throws an Error
 * naming the parameter when a number is not a non-negative integer.
 */
export function readFault(headers: IncomingHttpHeaders, query: URLSearchParams): TReplayFault {
  const fault: Record<string, unknown> = {};
  for (const [field, header, param, type] of FIELDS) {
    const headerValue = headers[header];
    const raw = query.get(param) ?? (Array.isArray(headerValue) ? headerValue[0] : headerValue);
    if (raw === undefined || raw === null || raw === '') continue;
    if (type === 'number') {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0) {
        throw new Error(`${header} / ${param} must be a non-negative integer, got "${raw}"`);
      }
      fault[field] = n;
    } else if (type === 'boolean') {
      fault[field] = raw !== '0' && raw.toLowerCase() !== 'false';
    } else {
      fault[field] = raw;
    }
  }
  return fault;
}

/** True when the fault changes the answer (a bare key or failTimes does not). */
export function isActiveFault(fault: TReplayFault): boolean {
  return (
    (fault.delayMs ?? 0) > 0 ||
    fault.status !== undefined ||
    fault.truncate === true ||
    fault.malformed === true ||
    fault.redirectTo !== undefined
  );
}
