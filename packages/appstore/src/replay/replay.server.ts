import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AS_OF_DAY, FixtureIndex, PAGE_RECORDING_KINDS } from './fixture.index';
import {
  FAULT_QUERY_PARAMS,
  isActiveFault,
  readFault,
  type TReplayFault,
  type TReplayFaultRule,
} from './replay.faults';
import { buildEmberPage, malformedServerDataPage, NOT_FOUND_PAGE } from './replay.page';
import { STOREFRONT_IDS } from '../parsers/search-hints.parser';

/** Options of {@link startReplayServer}. */
export interface TReplayServerOptions {
  /** Port to listen on; 0 picks a free one (tests). */
  port: number;
  /**
   * Folder of recordings (`<FIXTURES_DIR>/appstore`), or several: tests add the project's own
   * constructed recordings to the real ones.
   */
  fixturesDir: string | readonly string[];
  /**
   * Answer as of this day (`YYYY-MM-DD`, `STORE_REPLAY_AS_OF`): for each app and kind, the
   * newest recording captured on or before it. Null or absent: the newest recording.
   */
  asOf?: string | null;
  /** Interface to bind; 127.0.0.1 by default (loopback only). */
  host?: string;
  /** Delay added to every answer, ms (benchmarks; `STORE_REPLAY_DELAY_MS`). */
  defaultDelayMs?: number;
  /** Server-wide faults, for callers that cannot set request headers (workers under test). */
  faults?: TReplayFaultRule[];
  /** Requests kept in `requests`, the newest (default 1000; benchmarks that pace more keep more). */
  keepRequests?: number;
}

/** One request the replay server answered (for tests that assert which paths were fetched). */
export interface TReplayRequest {
  method: string;
  /** Path without the query, e.g. `/jp/app/id1546947240`. */
  path: string;
  /** Query parameters, e.g. `{ id: '1546947240', country: 'jp', entity: 'software' }`. */
  query: Record<string, string>;
  /** When the request arrived (epoch ms): tests check the pace of requests. */
  at: number;
}

/** A running replay server. */
export interface TReplayServer {
  /** Origin to use as both `ITUNES_ORIGIN` and `APP_STORE_ORIGIN`, e.g. `http://127.0.0.1:4100`. */
  url: string;
  port: number;
  /** Requests answered so far (all paths), to prove a URL was never fetched. */
  readonly requestCount: number;
  /** The requests answered so far, oldest first (the last `keepRequests`, default 1000, are kept). */
  readonly requests: readonly TReplayRequest[];
  /** Replaces the server-wide fault rules and resets the failTimes counters. */
  setFaults(rules: TReplayFaultRule[]): void;
  /**
   * Sets the server-wide as-of day (`YYYY-MM-DD`), or null for the newest recordings. Throws
   * on another format.
   */
  setAsOf(day: string | null): void;
  /** The server-wide as-of day, or null. */
  readonly asOf: string | null;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
// Apple serves the lookup API as text/javascript.
const LOOKUP_TYPE = 'text/javascript; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** What Apple's lookup answers for an id it does not know (with its three blank lines). */
export const EMPTY_LOOKUP = '\n\n\n{"resultCount":0,"results":[]}\n';

/** Path of the store's search hints endpoint. */
const HINTS_PATH = '/WebObjects/MZSearchHints.woa/wa/hints';
const PLIST_TYPE = 'text/xml; charset=utf-8';
/** A search hints answer without hints, as the store sends for an unknown term. */
export const EMPTY_HINTS =
  '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>title</key><string>Suggestions</string><key>hints</key><array></array></dict></plist>\n';

const STOREFRONT_BY_ID = new Map(
  Object.entries(STOREFRONT_IDS).map(([cc, id]) => [String(id), cc]),
);

/** The storefront of an `X-Apple-Store-Front` header (`143441-1,29`: us), or null. */
function storefrontOfHeader(value: string | undefined): string | null {
  const id = /^(\d+)/.exec(value ?? '')?.[1];
  return id ? (STOREFRONT_BY_ID.get(id) ?? null) : null;
}

function emptyReviewsFeed(storefront: string, appId: string): string {
  return JSON.stringify({
    feed: {
      author: { name: { label: 'iTunes Store' }, uri: { label: 'http://www.apple.com/itunes/' } },
      updated: { label: new Date().toISOString() },
      rights: { label: 'Copyright 2008 Apple Inc.' },
      title: { label: 'iTunes Store: Customer Reviews' },
      icon: { label: 'http://itunes.apple.com/favicon.ico' },
      link: [],
      id: {
        label: `https://itunes.apple.com/${storefront}/rss/customerreviews/id=${appId}/sortby=mostrecent/json`,
      },
    },
  });
}

interface TAnswer {
  status: number;
  type: string;
  body: string;
  /** Body to send when the malformed fault is on. */
  malformed?: () => string;
  /** Capture date of the recording answered ('' when undated); absent for made-up answers. */
  recordedOn?: string;
}

/**
 * Response header carrying the capture date of a recorded answer (its file name's date, e.g.
 * '2026-06'; 'undated' when the name has none), so the scraper can date the store data.
 */
export const RECORDED_ON_HEADER = 'x-replay-recorded-on';

/** Header and query parameter that answer one request as of a day (tests). */
export const AS_OF_HEADER = 'x-replay-as-of';
export const AS_OF_PARAM = 'replayAsOf';

/** Checks an as-of day: `YYYY-MM-DD`, or null/'' for none. Throws an Error naming the value. */
export function parseAsOfDay(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (!AS_OF_DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new Error(`as-of day must be YYYY-MM-DD, got "${value}"`);
  }
  return value;
}

const PRODUCT_PAGE = /^\/(?:([a-z]{2})\/)?app\/(?:[^/]+\/)?id(\d+)\/?$/i;
const REVIEWS_RSS =
  /^\/([a-z]{2})\/rss\/customerreviews\/(?:page=(\d+)\/)?id=(\d+)\/sortby=mostrecent\/json\/?$/i;

function cutJson(text: string): string {
  return `${text.slice(0, Math.floor(text.length / 2))}<<replay: malformed>>`;
}

/**
 * Starts the replay server: recorded App Store answers at Apple's paths, for tests and offline
 * demos (docs/product.md#how-an-audit-runs). One server serves both origins:
 *
 * - `GET /lookup?id=<id>&country=<cc>`: the `itunes-lookup_*` recording verbatim (with its
 *   leading blank lines); an unknown id answers `{"resultCount":0,"results":[]}` like Apple.
 * - `GET /<cc>/app/<slug>/id<id>` and `/<cc>/app/id<id>` (any query, e.g. `?l=fr-CA`): the
 *   recorded HTML page verbatim for a `page2025_*` (else `page2025-trimmed_*`) recording of
 *   that app and storefront; else, for a `media-api_*` recording, an Ember-layout HTML page
 *   embedding it (see `buildEmberPage`); otherwise Apple's 404 page.
 * - `GET /search?term=<t>&country=<cc>` (the iTunes Search API): the `itunes-search_*`
 *   recording of that term (matched by its file-name form, see `termSlug`) and storefront,
 *   verbatim; any other term answers `{"resultCount":0,"results":[]}` as Apple does for a term
 *   without results.
 * - `GET /WebObjects/MZSearchHints.woa/wa/hints?clientApplication=Software&term=<t>` (the
 *   store's search hints), storefront from the `X-Apple-Store-Front` id: the
 *   `[constructed-]search-hints_*` recording of that term, verbatim; any other term, or no
 *   storefront header, answers a property list without hints, as the store does.
 * - `GET /<cc>/rss/customerreviews/[page=1/]id=<id>/sortby=mostrecent/json`: the
 *   `reviews-rss_*` recording; other pages and unknown ids answer a feed without entries.
 * - `GET /__redirect?to=<url>`: 302 to `to` (to test the client's SSRF guard).
 * - `GET /__health`: the indexed recordings and the as-of day.
 * - `PUT /__as-of?day=YYYY-MM-DD` (no `day`: none): sets the server-wide as-of day, for a
 *   replay server in another process (`pnpm start --offline`).
 *
 * As of a day (server-wide `asOf` / `STORE_REPLAY_AS_OF`, or per request with the
 * `x-replay-as-of` header or the `replayAsOf` query parameter, which win): each kind of
 * recording of an app is the newest captured on or before that day (a month-dated one counts
 * from the month's first day, an undated one as older than any dated one); a kind with none by
 * then answers as if the store had no such app (empty lookup, 404 page, empty feed).
 *
 * Faults (delay, status, truncated or malformed body, redirect) are set per request by
 * headers or query parameters (see `TReplayFault`), or server-wide by `faults` rules.
 * Resolves once listening; rejects when the folder cannot be read or the port is taken.
 */
export async function startReplayServer(options: TReplayServerOptions): Promise<TReplayServer> {
  const index = new FixtureIndex(options.fixturesDir);
  let rules: TReplayFaultRule[] = options.faults ?? [];
  let serverAsOf = parseAsOfDay(options.asOf);
  const failCounts = new Map<string, number>();
  let requestCount = 0;
  const requests: TReplayRequest[] = [];
  const keepRequests = options.keepRequests ?? 1000;

  function answer(url: URL, asOf: string | null, storeFront: string | undefined): TAnswer {
    const path = url.pathname;
    if (path === '/lookup') {
      const storefront = (url.searchParams.get('country') ?? 'us').toLowerCase();
      const ids = (url.searchParams.get('id') ?? '').split(',').filter((s) => /^\d+$/.test(s));
      const recording =
        ids.length === 1 ? index.find('itunes-lookup', storefront, ids[0]!, asOf) : undefined;
      const body = recording ? index.read(recording) : EMPTY_LOOKUP;
      return {
        status: 200,
        type: LOOKUP_TYPE,
        body,
        malformed: () => cutJson(body),
        ...(recording ? { recordedOn: recording.date } : {}),
      };
    }
    if (path === '/search') {
      const storefront = (url.searchParams.get('country') ?? 'us').toLowerCase();
      const term = url.searchParams.get('term') ?? '';
      const recording = term === '' ? undefined : index.findSearch(storefront, term, asOf);
      const body = recording ? index.read(recording) : EMPTY_LOOKUP;
      return { status: 200, type: LOOKUP_TYPE, body, malformed: () => cutJson(body) };
    }
    if (path === HINTS_PATH) {
      // As the store does, no storefront header gets no hints (facundoolano/aso#26).
      const storefront = storefrontOfHeader(storeFront);
      const term = url.searchParams.get('term') ?? '';
      const recording =
        term === '' || storefront === null ? undefined : index.findHints(storefront, term, asOf);
      const body = recording ? index.read(recording) : EMPTY_HINTS;
      return {
        status: 200,
        type: PLIST_TYPE,
        body,
        malformed: () => body.slice(0, body.length / 2),
      };
    }
    const page = PRODUCT_PAGE.exec(path);
    if (page) {
      const storefront = (page[1] ?? 'us').toLowerCase();
      const appId = page[2]!;
      const html = PAGE_RECORDING_KINDS.map((kind) =>
        index.find(kind, storefront, appId, asOf),
      ).find((r) => r !== undefined);
      if (html) {
        const text = index.read(html);
        return {
          status: 200,
          type: HTML_TYPE,
          body: text,
          malformed: () => malformedServerDataPage(text),
          recordedOn: html.date,
        };
      }
      const recording = index.find('media-api', storefront, appId, asOf);
      if (!recording) return { status: 404, type: HTML_TYPE, body: NOT_FOUND_PAGE };
      const text = index.read(recording);
      return {
        status: 200,
        type: HTML_TYPE,
        body: buildEmberPage(text, appId),
        malformed: () => buildEmberPage(text, appId, true),
        recordedOn: recording.date,
      };
    }
    const rss = REVIEWS_RSS.exec(path);
    if (rss) {
      const storefront = rss[1]!.toLowerCase();
      const pageNumber = Number(rss[2] ?? '1');
      const appId = rss[3]!;
      const recording =
        pageNumber === 1 ? index.find('reviews-rss', storefront, appId, asOf) : undefined;
      const body = recording ? index.read(recording) : emptyReviewsFeed(storefront, appId);
      return {
        status: 200,
        type: JSON_TYPE,
        body,
        malformed: () => cutJson(body),
        ...(recording ? { recordedOn: recording.date } : {}),
      };
    }
    if (path === '/__health') {
      const recordings = index.list().map(({ kind, storefront, appId, date, constructed }) => ({
        kind,
        storefront,
        appId,
        date,
        constructed,
      }));
      const terms = (list: ReturnType<typeof index.listSearches>) =>
        list.map(({ storefront, termSlug, date, constructed }) => ({
          storefront,
          term: termSlug,
          date,
          constructed,
        }));
      const searches = terms(index.listSearches());
      const hints = terms(index.listHints());
      return {
        status: 200,
        type: JSON_TYPE,
        body: JSON.stringify({ ok: true, asOf: serverAsOf, recordings, searches, hints }),
      };
    }
    return { status: 404, type: JSON_TYPE, body: JSON.stringify({ message: `No route ${path}` }) };
  }

  function faultFor(req: IncomingMessage, url: URL): TReplayFault {
    const own = readFault(req.headers, url.searchParams);
    const target = `${url.pathname}${url.search}`;
    const rule = rules.find((r) => !r.pathIncludes || target.includes(r.pathIncludes));
    const fault: TReplayFault = isActiveFault(own) || !rule ? own : { ...rule, ...own };
    if (!isActiveFault(fault) || fault.failTimes === undefined) return fault;
    // Count per path (fault parameters removed from the query) and per fault.
    const query = new URLSearchParams(url.search);
    for (const name of FAULT_QUERY_PARAMS) query.delete(name);
    const counterKey = JSON.stringify([
      fault.key ?? '',
      url.pathname,
      query.toString(),
      { ...fault, key: undefined },
    ]);
    const seen = failCounts.get(counterKey) ?? 0;
    if (seen >= fault.failTimes) return {};
    failCounts.set(counterKey, seen + 1);
    return fault;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    requestCount += 1;
    const url = new URL(req.url ?? '/', 'http://replay.invalid');
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      at: Date.now(),
    });
    if (requests.length > keepRequests) requests.shift();
    if (url.pathname === '/__as-of' && req.method === 'PUT') {
      try {
        serverAsOf = parseAsOfDay(url.searchParams.get('day'));
        res.writeHead(200, { 'content-type': JSON_TYPE });
        res.end(JSON.stringify({ asOf: serverAsOf }));
      } catch (error) {
        res.writeHead(400, { 'content-type': JSON_TYPE });
        res.end(JSON.stringify({ message: (error as Error).message }));
      }
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': JSON_TYPE, allow: 'GET, HEAD' });
      res.end(JSON.stringify({ message: `Method ${req.method} not allowed` }));
      return;
    }
    let fault: TReplayFault;
    let asOf: string | null;
    try {
      fault = faultFor(req, url);
      const own = url.searchParams.get(AS_OF_PARAM) ?? req.headers[AS_OF_HEADER];
      asOf = own === undefined ? serverAsOf : parseAsOfDay(Array.isArray(own) ? own[0] : own);
    } catch (error) {
      res.writeHead(400, { 'content-type': JSON_TYPE });
      res.end(JSON.stringify({ message: (error as Error).message }));
      return;
    }

    const delay = (options.defaultDelayMs ?? 0) + (fault.delayMs ?? 0);
    if (delay > 0) {
      const closed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), delay);
        res.once('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (closed) return;
    }

    if (url.pathname === '/__redirect' || fault.redirectTo !== undefined) {
      const to = fault.redirectTo ?? url.searchParams.get('to');
      if (!to) {
        res.writeHead(400, { 'content-type': JSON_TYPE });
        res.end(JSON.stringify({ message: '/__redirect needs ?to=<url>' }));
        return;
      }
      res.writeHead(302, { location: to, 'content-type': JSON_TYPE });
      res.end(JSON.stringify({ redirect: to }));
      return;
    }

    if (fault.status !== undefined) {
      const headers: Record<string, string> = { 'content-type': JSON_TYPE };
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      res.writeHead(fault.status, headers);
      res.end(JSON.stringify({ message: `Replay fault: HTTP ${fault.status}` }));
      return;
    }

    let result: TAnswer;
    try {
      const storeFront = req.headers['x-apple-store-front'];
      result = answer(url, asOf, Array.isArray(storeFront) ? storeFront[0] : storeFront);
    } catch (error) {
      res.writeHead(500, { 'content-type': JSON_TYPE });
      res.end(JSON.stringify({ message: `Replay server error: ${(error as Error).message}` }));
      return;
    }
    const text = fault.malformed && result.malformed ? result.malformed() : result.body;
    const body = Buffer.from(text, 'utf8');
    res.writeHead(result.status, {
      'content-type': result.type,
      'content-length': String(body.length),
      'cache-control': 'no-store',
      ...(result.recordedOn === undefined
        ? {}
        : { [RECORDED_ON_HEADER]: result.recordedOn || 'undated' }),
    });
    if (fault.truncate && req.method === 'GET') {
      // Announce the whole length, send half, then drop the connection: what a reset
      // mid-transfer looks like to the client.
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
      return;
    }
    res.end(body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': JSON_TYPE });
      res.end(JSON.stringify({ message: String(error) }));
    });
  });
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port, host);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    get requestCount() {
      return requestCount;
    },
    get requests() {
      return requests;
    },
    setFaults(next: TReplayFaultRule[]) {
      rules = next;
      failCounts.clear();
    },
    get asOf() {
      return serverAsOf;
    },
    setAsOf(day: string | null) {
      serverAsOf = parseAsOfDay(day);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
