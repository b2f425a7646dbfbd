import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pRetry, { AbortError } from 'p-retry';
import type { z } from 'zod';
import { AscTokenSigner, type TAscKey } from './asc-token';
import { AscApiError, appleDetail, errorFor } from './asc.errors';
import { parseRateLimit, rateLimitPauseMs, type TAscRateLimit } from './asc.rate-limit';
import {
  attr,
  str,
  ZPage,
  ZSingle,
  type ZResource,
  type TAscApp,
  type TAscReport,
  type TAscReportInstance,
  type TAscReportRequest,
  type TAscSegment,
} from './asc.resources';

/** Apple's production origin of the App Store Connect API. */
export const ASC_DEFAULT_ORIGIN = 'https://api.appstoreconnect.apple.com';

/** Redirects a segment download follows at most (each target checked, see `downloadSegment`). */
const MAX_SEGMENT_REDIRECTS = 5;
/** HTTP statuses that redirect (RFC 9110 section 15.4). */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Options of {@link AscClient}. */
export interface TAscClientOptions {
  /** `ASC_API_ORIGIN`; segment URLs on this origin may be plain http (a local stand-in). */
  origin: string;
  key: TAscKey;
  /** Timeout of each HTTP request, answer body included (ms). */
  timeoutMs: number;
  /** Tries of a request answered 429, 5xx or not at all (default 5). */
  attempts?: number;
  /** First backoff (ms, doubling, randomised; default 1,000). */
  baseDelayMs?: number;
  /** Longest backoff (ms, default 60,000). */
  maxDelayMs?: number;
  /** Below this ratio (0-1) of the hourly limit left, requests are paced (default 0.1). */
  lowWaterRatio?: number;
  /** Longest pacing pause (ms, default 10,000). */
  maxPauseMs?: number;
  /** Largest segment accepted (bytes, default 256 MB). */
  maxSegmentBytes?: number;
  /** Largest page of JSON:API results followed (default 1,000 pages). */
  maxPages?: number;
}

/**
 * The App Store Connect API client of one key: signs every request with a cached ES256 token
 * (renewed before it expires), reads `X-Rate-Limit` on every answer and paces itself as the
 * hour's requests run low, retries 429, 5xx and network errors with exponential backoff and
 * jitter (p-retry), gives every request a timeout, follows JSON:API `links.next`, and
 * downloads report segments from the URLs Apple returns (https only, or the configured
 * origin) checking their size and MD5. Errors are {@link AscApiError} in words.
 */
export class AscClient {
  private readonly signer: AscTokenSigner;
  private readonly origin: URL;
  /** The last `X-Rate-Limit` read (null before the first answer carrying one). */
  rateLimit: TAscRateLimit | null = null;
  /** Requests sent (every try counts), for progress and benchmarks. */
  requests = 0;
  /** Time spent in `X-Rate-Limit` pacing pauses so far (ms). */
  pausedMs = 0;

  constructor(private readonly opts: TAscClientOptions) {
    this.signer = new AscTokenSigner(opts.key);
    this.origin = new URL(opts.origin);
  }

  /** Every app the key sees (`GET /v1/apps`, all pages). */
  async listApps(): Promise<TAscApp[]> {
    const apps: TAscApp[] = [];
    for await (const r of this.pages('/v1/apps?fields[apps]=name,bundleId&limit=200')) {
      apps.push({ appId: r.id, name: str(attr(r, 'name')), bundleId: str(attr(r, 'bundleId')) });
    }
    return apps;
  }

  /** The app's report requests (`GET /v1/apps/{id}/analyticsReportRequests`). */
  async listReportRequests(appId: string): Promise<TAscReportRequest[]> {
    const out: TAscReportRequest[] = [];
    for await (const r of this.pages(
      `/v1/apps/${encodeURIComponent(appId)}/analyticsReportRequests?limit=200`,
    )) {
      const accessType = attr(r, 'accessType');
      if (accessType !== 'ONGOING' && accessType !== 'ONE_TIME_SNAPSHOT') continue;
      out.push({
        id: r.id,
        accessType,
        stoppedDueToInactivity: attr(r, 'stoppedDueToInactivity') === true,
      });
    }
    return out;
  }

  /** Creates a report request (`POST /v1/analyticsReportRequests`); 403 without the Admin role. */
  async createReportRequest(
    appId: string,
    accessType: TAscReportRequest['accessType'],
  ): Promise<TAscReportRequest> {
    const body = {
      data: {
        type: 'analyticsReportRequests',
        attributes: { accessType },
        relationships: { app: { data: { type: 'apps', id: appId } } },
      },
    };
    const json = ZSingle.parse(await this.send('POST', '/v1/analyticsReportRequests', body));
    return {
      id: json.data.id,
      accessType,
      stoppedDueToInactivity: attr(json.data, 'stoppedDueToInactivity') === true,
    };
  }

  /** The reports of a request in one category (`filter[category]`), all pages. */
  async listReports(requestId: string, category: string): Promise<TAscReport[]> {
    const out: TAscReport[] = [];
    for await (const r of this.pages(
      `/v1/analyticsReportRequests/${encodeURIComponent(requestId)}/reports?filter[category]=${encodeURIComponent(category)}&limit=200`,
    )) {
      out.push({ id: r.id, name: str(attr(r, 'name')), category: str(attr(r, 'category')) });
    }
    return out;
  }

  /** The instances of a report of one granularity (`filter[granularity]`), all pages. */
  async listInstances(reportId: string, granularity: string): Promise<TAscReportInstance[]> {
    const out: TAscReportInstance[] = [];
    for await (const r of this.pages(
      `/v1/analyticsReports/${encodeURIComponent(reportId)}/instances?filter[granularity]=${encodeURIComponent(granularity)}&limit=200`,
    )) {
      const processingDate = str(attr(r, 'processingDate'));
      if (!/^\d{4}-\d{2}-\d{2}$/.test(processingDate)) continue;
      out.push({ id: r.id, granularity: str(attr(r, 'granularity')), processingDate });
    }
    return out;
  }

  /** The segments of an instance, all pages. */
  async listSegments(instanceId: string): Promise<TAscSegment[]> {
    const out: TAscSegment[] = [];
    for await (const r of this.pages(
      `/v1/analyticsReportInstances/${encodeURIComponent(instanceId)}/segments?limit=200`,
    )) {
      const size = attr(r, 'sizeInBytes');
      out.push({
        id: r.id,
        url: str(attr(r, 'url')),
        checksum: str(attr(r, 'checksum')).toLowerCase(),
        sizeInBytes: typeof size === 'number' ? size : -1,
      });
    }
    return out;
  }

  /**
   * Downloads a segment's bytes from the URL Apple returned (no Authorization header: the URL
   * is pre-signed), checks `sizeInBytes` and the MD5 `checksum`. Redirects are followed by
   * hand, each target checked by the same rule. Throws AscApiError: an http URL off the
   * configured origin (given or redirected to), a 403/404 (the URL expired: list the segments again),
   * a body larger than `maxSegmentBytes`, or a size or checksum that does not match.
   */
  async downloadSegment(segment: TAscSegment): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(segment.url);
    } catch {
      throw new AscApiError('App Store Connect gave a segment without a valid URL', 0, false);
    }
    const refused = this.segmentUrlRefusal(url);
    if (refused) throw refused;
    const max = this.opts.maxSegmentBytes ?? 256 * 1024 * 1024;
    if (segment.sizeInBytes > max) {
      throw new AscApiError(
        `segment of ${segment.sizeInBytes} bytes is over the ${max}-byte limit`,
        0,
        false,
      );
    }
    const bytes = await this.withRetry('GET', url.pathname, async (signal) => {
      const res = await this.fetchSegment(url, signal);
      if (res.status === 403 || res.status === 404 || res.status === 410) {
        await res.body?.cancel();
        throw new AbortError(
          new AscApiError(
            `segment URL expired or gone (${res.status}); list the segments again`,
            res.status,
            true,
          ),
        );
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw errorFor(res.status, 'GET', 'segment', '');
      }
      return readCapped(res, max);
    });
    if (bytes.length !== segment.sizeInBytes) {
      throw new AscApiError(
        `segment ${segment.id} is ${bytes.length} bytes, App Store Connect announced ${segment.sizeInBytes}`,
        0,
        true,
      );
    }
    const md5 = createHash('md5').update(bytes).digest('hex');
    if (md5 !== segment.checksum) {
      throw new AscApiError(`segment ${segment.id} does not match its MD5 checksum`, 0, true);
    }
    return bytes;
  }

  /**
   * The refusal of a segment URL (or a redirect's target) that is neither https nor on the
   * configured `ASC_API_ORIGIN` (which may be plain http: a local stand-in); null when allowed.
   */
  private segmentUrlRefusal(url: URL): AscApiError | null {
    if (url.protocol === 'https:' || url.origin === this.origin.origin) return null;
    return new AscApiError(
      `segment URL refused: only https is followed (${url.protocol}//${url.host})`,
      0,
      false,
    );
  }

  /**
   * GETs a segment following at most {@link MAX_SEGMENT_REDIRECTS} redirects by hand, so
   * that each target is checked by {@link segmentUrlRefusal} before it is fetched (fetch's own
   * `redirect: 'follow'` would go from https to plain http unchecked).
   */
  private async fetchSegment(start: URL, signal: AbortSignal): Promise<Response> {
    let url = start;
    for (let hop = 0; ; hop++) {
      const res = await fetch(url, { signal, redirect: 'manual' });
      if (!REDIRECT_STATUSES.has(res.status)) return res;
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (!location || hop >= MAX_SEGMENT_REDIRECTS) {
        throw new AbortError(
          new AscApiError(
            location
              ? `segment download redirected more than ${MAX_SEGMENT_REDIRECTS} times`
              : `segment download answered ${res.status} without a Location`,
            res.status,
            false,
          ),
        );
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new AbortError(
          new AscApiError('segment download redirected to an invalid URL', res.status, false),
        );
      }
      const refusal = this.segmentUrlRefusal(next);
      if (refusal) throw new AbortError(refusal);
      url = next;
    }
  }

  /** The resources of every page of a JSON:API list, following `links.next`. */
  private async *pages(path: string): AsyncGenerator<z.infer<typeof ZResource>> {
    let next: string | undefined = path;
    for (let page = 0; next; page++) {
      if (page >= (this.opts.maxPages ?? 1_000)) {
        throw new AscApiError(
          `more than ${this.opts.maxPages ?? 1_000} pages at ${path}`,
          0,
          false,
        );
      }
      const json = ZPage.parse(await this.send('GET', next));
      yield* json.data;
      next = json.links?.next;
    }
  }

  /** A signed JSON request to the API origin (`pathOrUrl`: a path, or a `links.next` URL). */
  private async send(method: 'GET' | 'POST', pathOrUrl: string, body?: unknown): Promise<unknown> {
    const url = new URL(pathOrUrl, this.origin);
    if (url.origin !== this.origin.origin) {
      throw new AscApiError(
        `App Store Connect link off its origin refused: ${url.origin}`,
        0,
        false,
      );
    }
    return this.withRetry(method, url.pathname, async (signal) => {
      const res = await fetch(url, {
        method,
        signal,
        headers: {
          authorization: `Bearer ${await this.signer.token()}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const rl = parseRateLimit(res.headers.get('x-rate-limit'));
      if (rl) this.rateLimit = rl;
      const text = await res.text();
      if (!res.ok) {
        const error = errorFor(res.status, method, url.pathname, appleDetail(text));
        throw error.retryable ? error : new AbortError(error);
      }
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new AbortError(
          new AscApiError(
            `App Store Connect answered ${url.pathname} with text that is not JSON`,
            res.status,
            false,
          ),
        );
      }
    });
  }

  /** Runs `attempt` with a timeout each, paced by the last rate limit, retried with backoff. */
  private async withRetry<T>(
    method: string,
    path: string,
    attempt: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    try {
      return await pRetry(
        async () => {
          const pause = rateLimitPauseMs(this.rateLimit, {
            lowWaterRatio: this.opts.lowWaterRatio ?? 0.1,
            maxPauseMs: this.opts.maxPauseMs ?? 10_000,
          });
          if (pause > 0) {
            this.pausedMs += pause;
            await sleep(pause);
          }
          this.requests++;
          try {
            return await attempt(AbortSignal.timeout(this.opts.timeoutMs));
          } catch (error) {
            if (error instanceof AbortError || error instanceof AscApiError) throw error;
            const timedOut = error instanceof Error && error.name === 'TimeoutError';
            throw new AscApiError(
              timedOut
                ? `App Store Connect did not answer ${method} ${path} within ${this.opts.timeoutMs} ms`
                : `App Store Connect could not be reached (${method} ${path}): ${error instanceof Error ? error.message : String(error)}`,
              0,
              true,
            );
          }
        },
        {
          retries: (this.opts.attempts ?? 5) - 1,
          factor: 2,
          minTimeout: this.opts.baseDelayMs ?? 1_000,
          maxTimeout: this.opts.maxDelayMs ?? 60_000,
          randomize: true,
          shouldRetry: ({ error }) => error instanceof AscApiError && error.retryable,
        },
      );
    } catch (error) {
      if (error instanceof AscApiError) throw error;
      throw new AscApiError(error instanceof Error ? error.message : String(error), 0, false);
    }
  }
}

/** Reads a body, throwing past `max` bytes (the announced size is checked by the caller). */
async function readCapped(res: Response, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  if (!res.body) return Buffer.alloc(0);
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > max)
      throw new AbortError(new AscApiError(`segment over the ${max}-byte limit`, 0, false));
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
