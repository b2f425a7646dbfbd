import {
  createHash,
  createHmac,
  createPublicKey,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { ASC_AUDIENCE, ASC_MAX_TOKEN_LIFETIME_MS } from '../asc-token';
import type { TAscReportKind } from '../report-tsv';
import {
  gzipSegments,
  REPORT_COLUMNS,
  ReportGenerator,
  toTsv,
  type TDayVersion,
  type TGeneratorShape,
  type TRecord,
} from './report-generator';

/** A key the stand-in knows: its public half and the role of the key in App Store Connect. */
export interface TStandInKey {
  issuerId: string;
  keyId: string;
  /** SPKI PEM or KeyObject of the key's public half. */
  publicKey: string | KeyObject;
  /** ADMIN may make an app's first report request; the others may only read. */
  role: 'ADMIN' | 'SALES_AND_REPORTS' | 'FINANCE';
}

/** An app of the stand-in's team. */
export interface TStandInApp {
  id: string;
  name: string;
  bundleId: string;
}

/** Options of {@link startAscStandIn}. */
export interface TAscStandInOptions {
  port?: number;
  host?: string;
  keys: TStandInKey[];
  apps: TStandInApp[];
  /** Seed of the constructed figures. */
  seed?: number;
  shape?: TGeneratorShape;
  /** First Date with data (YYYY-MM-DD). */
  firstDate: string;
  /** Processing date of the newest instance (YYYY-MM-DD); its day before is the last Date. */
  lastProcessingDate: string;
  /** Requests per key and window (`user-hour-lim`, default 3,500). */
  rateLimit?: number;
  /** Length of the rate-limit window (ms, default an hour). */
  rateWindowMs?: number;
  /** How long a segment URL works after it was listed (ms, default 5 min). */
  segmentTtlMs?: number;
  /** The first listing of each instance's segments gives URLs already expired (tests). */
  expireFirstListing?: boolean;
  /** Page size of lists when the client asks for none (default 50; `limit` up to 200). */
  pageSize?: number;
  /** Records per segment file (default 5,000). */
  rowsPerSegment?: number;
  /** Column order of each report (default Apple's documented order). */
  columns?: Partial<Record<TAscReportKind, readonly string[]>>;
  /** Report requests existing before any client call, e.g. one stopped for inactivity. */
  existingRequests?: Array<{
    appId: string;
    accessType: 'ONGOING' | 'ONE_TIME_SNAPSHOT';
    stoppedDueToInactivity: boolean;
  }>;
  /** Every correction lands this many days after its Date (default 8). */
  correctionLagDays?: number;
  /**
   * Apps whose requests offer only the Detailed variants of the two reports ("... Detailed",
   * with the Detailed reports' extra columns), no Standard ones.
   */
  detailedApps?: readonly string[];
}

/** What a running stand-in offers tests. */
export interface TAscStandIn {
  url: string;
  /** Requests answered per path kind (e.g. `segment`, `instances`). */
  hits: Map<string, number>;
  /**
   * The true daily figures of an app's report after every instance up to the last processing
   * date: per Date, the records of the newest version. Keyed by Date.
   */
  truth(appId: string, kind: TAscReportKind): Map<string, TRecord[]>;
  /**
   * Moves the newest instance's processing date (YYYY-MM-DD): later instances appear, as
   * Apple's do day after day (tests of corrections arriving after an import).
   */
  setLastProcessingDate(date: string): void;
  /** When each signed API request arrived (`performance.now()` ms), oldest first. */
  apiRequestTimes(): number[];
  /** Report requests made so far (by the stand-in's clients). */
  requests(): Array<{
    id: string;
    appId: string;
    accessType: string;
    stoppedDueToInactivity: boolean;
  }>;
  close(): Promise<void>;
}

const REPORT_NAMES: Record<TAscReportKind, { name: string; category: string }> = {
  engagement: {
    name: 'App Store Discovery and Engagement Standard',
    category: 'APP_STORE_ENGAGEMENT',
  },
  downloads: { name: 'App Downloads Standard', category: 'COMMERCE' },
};
/** The Detailed variants, and the columns they have beyond the Standard reports'. */
const DETAILED_REPORTS: Record<TAscReportKind, { name: string; extraColumns: readonly string[] }> =
  {
    engagement: {
      name: 'App Store Discovery and Engagement Detailed',
      extraColumns: ['Source Info', 'Page Title'],
    },
    downloads: { name: 'App Downloads Detailed', extraColumns: ['App Bundle Identifier'] },
  };
/** Reports of other categories a request also has (the importer must pick by name). */
const OTHER_REPORTS = [
  { name: 'App Sessions Standard', category: 'APP_USAGE' },
  { name: 'App Store Installation and Deletion Standard', category: 'APP_USAGE' },
];

/**
 * How far in the future a token's `iat` may be (ms): clocks drift, but a token "issued" later
 * than that is refused, as a token from a wrong clock would be.
 */
const CLOCK_SKEW_MS = 60_000;
/** Request arrival times kept (the oldest are dropped). */
const MAX_REQUEST_TIMES = 10_000;

const day = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
const iso = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);

function appleError(
  res: ServerResponse,
  status: number,
  code: string,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(
    JSON.stringify({
      errors: [{ id: randomBytes(8).toString('hex'), status: String(status), code, title, detail }],
    }),
  );
}

async function readBody(req: IncomingMessage, max = 64 * 1024): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > max) throw new Error('body too large');
  }
  return body;
}

/**
 * A stand-in of the App Store Connect API's Analytics Reports endpoints, a real HTTP server
 * enforcing what Apple documents: an ES256 bearer token verified against the registered
 * public key of its `kid`, with `iss` of that key, `aud` appstoreconnect-v1, an `exp` at
 * most 20 minutes after `iat` and an `iat` not in the future (beyond a minute of clock
 * skew; 401 otherwise); `X-Rate-Limit` on every answer and 429 past the limit; 403 when a key
 * without the Admin role creates a report request (an app's first one included);
 * segment URLs signed with an expiry (403 once expired, like a lapsed pre-signed URL);
 * JSON:API lists with `links.next` paging. Reports are CONSTRUCTED by a seeded generator:
 * the instance processed on day P holds P-1 (60 % of its counts), P-2 (90 %) and P-3
 * (final), and corrected Dates are stated again `correctionLagDays` after the Date.
 */
export async function startAscStandIn(opts: TAscStandInOptions): Promise<TAscStandIn> {
  const gen = new ReportGenerator({
    seed: opts.seed ?? 1,
    ...(opts.shape ? { shape: opts.shape } : {}),
  });
  const lag = opts.correctionLagDays ?? 8;
  const first = day(opts.firstDate);
  let lastP = day(opts.lastProcessingDate);
  const detailed = new Set(opts.detailedApps ?? []);
  const requestTimes: number[] = [];
  const keys = new Map(
    opts.keys.map((k) => [
      k.keyId,
      {
        ...k,
        publicKey: typeof k.publicKey === 'string' ? createPublicKey(k.publicKey) : k.publicKey,
      },
    ]),
  );
  const apps = new Map(opts.apps.map((a) => [a.id, a]));
  const signing = randomBytes(32);
  const hits = new Map<string, number>();
  const rate = new Map<string, { windowStart: number; used: number }>();
  const limit = opts.rateLimit ?? 3500;
  const windowMs = opts.rateWindowMs ?? 3_600_000;
  const listed = new Set<string>();
  let nextId = 1;
  const requests: Array<{
    id: string;
    appId: string;
    accessType: string;
    stoppedDueToInactivity: boolean;
  }> = (opts.existingRequests ?? []).map((r) => ({ id: `req-${nextId++}`, ...r }));
  const segmentCache = new Map<string, Buffer[]>();
  let origin = '';

  /** The Dates an instance processed on day `p` holds, and in which version. */
  const instanceDays = (p: number): Array<[string, TDayVersion]> => {
    const out: Array<[string, TDayVersion]> = [];
    const versions: Array<[number, TDayVersion]> = [
      [1, 'first'],
      [2, 'second'],
      [3, 'final'],
    ];
    for (const [back, v] of versions) {
      const d = p - back;
      if (d >= first && d < lastP) out.push([iso(d), v]);
    }
    const c = p - lag;
    if (c >= first && gen.isCorrected(iso(c))) out.push([iso(c), 'corrected']);
    return out;
  };
  const dayRecords = (app: TStandInApp, kind: TAscReportKind, date: string, v: TDayVersion) =>
    gen.records(app, kind, date, v);

  const segmentsOf = (appId: string, kind: TAscReportKind, p: number): Buffer[] => {
    const key = `${appId}|${kind}|${p}`;
    const cached = segmentCache.get(key);
    if (cached) return cached;
    const app = apps.get(appId)!;
    const records = instanceDays(p).flatMap(([d, v]) => dayRecords(app, kind, d, v));
    const columns = [
      ...(opts.columns?.[kind] ?? REPORT_COLUMNS[kind]),
      ...(detailed.has(appId) ? DETAILED_REPORTS[kind].extraColumns : []),
    ];
    const made = gzipSegments(toTsv(records, columns), opts.rowsPerSegment ?? 5000);
    if (segmentCache.size > 64) segmentCache.delete(segmentCache.keys().next().value!);
    segmentCache.set(key, made);
    return made;
  };

  const sign = (text: string) => createHmac('sha256', signing).update(text).digest('hex');

  /** Pages `items` by `limit` / `cursor`, with `links.next` built from `url`. */
  const page = (url: URL, items: unknown[]) => {
    const size = Math.min(Number(url.searchParams.get('limit') ?? opts.pageSize ?? 50) || 50, 200);
    const start = Number(url.searchParams.get('cursor') ?? 0) || 0;
    const data = items.slice(start, start + size);
    const links: Record<string, string> = { self: `${origin}${url.pathname}${url.search}` };
    if (start + size < items.length) {
      const next = new URL(url.pathname + url.search, origin);
      next.searchParams.set('cursor', String(start + size));
      next.searchParams.set('limit', String(size));
      links['next'] = next.toString();
    }
    return { data, links, meta: { paging: { total: items.length, limit: size } } };
  };

  const authenticate = async (req: IncomingMessage): Promise<TStandInKey | string> => {
    const header = req.headers.authorization ?? '';
    const token = /^Bearer (.+)$/.exec(header)?.[1];
    if (!token) return 'Missing bearer token.';
    try {
      const { kid, alg } = decodeProtectedHeader(token);
      if (alg !== 'ES256') return 'Tokens must be signed with ES256.';
      const key = kid ? keys.get(kid) : undefined;
      if (!key) return 'Unknown key id.';
      const claims = decodeJwt(token);
      if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number')
        return 'iat and exp are required.';
      if ((claims.exp - claims.iat) * 1000 > ASC_MAX_TOKEN_LIFETIME_MS)
        return 'Token lifetime is longer than 20 minutes.';
      if (claims.iat * 1000 > Date.now() + CLOCK_SKEW_MS) return 'iat is in the future.';
      await jwtVerify(token, key.publicKey, {
        algorithms: ['ES256'],
        audience: ASC_AUDIENCE,
        issuer: key.issuerId,
      });
      return key;
    } catch (error) {
      return `Token not valid: ${(error as Error).message}`;
    }
  };

  const count = (kind: string) => hits.set(kind, (hits.get(kind) ?? 0) + 1);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    // Segment downloads: pre-signed, no bearer token (like Apple's storage URLs).
    const seg = /^\/analytics-segments\/([^/]+)$/.exec(url.pathname);
    if (seg && req.method === 'GET') {
      count('segment');
      const id = decodeURIComponent(seg[1]!);
      const expires = Number(url.searchParams.get('expires'));
      const sig = url.searchParams.get('sig') ?? '';
      const want = sign(`${id}|${expires}`);
      if (sig.length !== want.length || !timingSafeEqual(Buffer.from(sig), Buffer.from(want))) {
        res
          .writeHead(403, { 'content-type': 'application/xml' })
          .end('<Error><Code>AccessDenied</Code></Error>');
        return;
      }
      if (Date.now() > expires) {
        res
          .writeHead(403, { 'content-type': 'application/xml' })
          .end('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
        return;
      }
      const [appId, kind, p, n] = id.split('~');
      const bytes = segmentsOf(appId!, kind as TAscReportKind, Number(p))[Number(n)];
      if (!bytes) return void res.writeHead(404).end();
      res
        .writeHead(200, { 'content-type': 'application/a-gzip', 'content-length': bytes.length })
        .end(bytes);
      return;
    }

    const key = await authenticate(req);
    if (typeof key === 'string') {
      return appleError(
        res,
        401,
        'NOT_AUTHORIZED',
        'Authentication credentials are missing or invalid.',
        `Provide a properly configured and signed bearer token, and make sure that it has not expired. ${key}`,
      );
    }
    const now = Date.now();
    const r = rate.get(key.keyId);
    const state = r && now - r.windowStart < windowMs ? r : { windowStart: now, used: 0 };
    rate.set(key.keyId, state);
    if (state.used >= limit) {
      count('429');
      return appleError(
        res,
        429,
        'RATE_LIMIT_EXCEEDED',
        'The request rate limit has been reached.',
        'We’ve received too many requests for this API. Please wait and try again or slow down your request rate.',
        { 'x-rate-limit': `user-hour-lim:${limit};user-hour-rem:0;` },
      );
    }
    state.used++;
    requestTimes.push(performance.now());
    if (requestTimes.length > MAX_REQUEST_TIMES) requestTimes.shift();
    res.setHeader('x-rate-limit', `user-hour-lim:${limit};user-hour-rem:${limit - state.used};`);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const notFound = () =>
      appleError(
        res,
        404,
        'NOT_FOUND',
        'The specified resource does not exist',
        `There is no resource at ${url.pathname}`,
      );
    let m: RegExpExecArray | null;

    if (url.pathname === '/v1/apps' && req.method === 'GET') {
      count('apps');
      return json(
        200,
        page(
          url,
          [...apps.values()].map((a) => ({
            type: 'apps',
            id: a.id,
            attributes: {
              name: a.name,
              bundleId: a.bundleId,
              sku: a.bundleId,
              primaryLocale: 'en-US',
            },
          })),
        ),
      );
    }
    if (
      (m = /^\/v1\/apps\/([^/]+)\/analyticsReportRequests$/.exec(url.pathname)) &&
      req.method === 'GET'
    ) {
      count('requests');
      const appId = decodeURIComponent(m[1]!);
      if (!apps.has(appId)) return notFound();
      const accessType = url.searchParams.get('filter[accessType]');
      return json(
        200,
        page(
          url,
          requests
            .filter(
              (q) =>
                q.appId === appId && (!accessType || accessType.split(',').includes(q.accessType)),
            )
            .map((q) => ({
              type: 'analyticsReportRequests',
              id: q.id,
              attributes: {
                accessType: q.accessType,
                stoppedDueToInactivity: q.stoppedDueToInactivity,
              },
            })),
        ),
      );
    }
    if (url.pathname === '/v1/analyticsReportRequests' && req.method === 'POST') {
      count('create-request');
      let body: {
        data?: {
          type?: string;
          attributes?: { accessType?: string };
          relationships?: { app?: { data?: { type?: string; id?: string } } };
        };
      };
      try {
        body = JSON.parse(await readBody(req)) as typeof body;
      } catch {
        return appleError(
          res,
          400,
          'PARAMETER_ERROR.INVALID',
          'The request entity is not valid JSON',
          'Send a JSON:API document.',
        );
      }
      const appId = body.data?.relationships?.app?.data?.id ?? '';
      const accessType = body.data?.attributes?.accessType ?? '';
      if (
        body.data?.type !== 'analyticsReportRequests' ||
        !['ONGOING', 'ONE_TIME_SNAPSHOT'].includes(accessType)
      ) {
        return appleError(
          res,
          409,
          'ENTITY_ERROR.ATTRIBUTE.INVALID',
          'An attribute value is invalid.',
          'accessType must be ONGOING or ONE_TIME_SNAPSHOT.',
        );
      }
      if (!apps.has(appId))
        return appleError(
          res,
          404,
          'NOT_FOUND',
          'The specified resource does not exist',
          `There is no app with id ${appId}`,
        );
      const ofApp = requests.filter((q) => q.appId === appId);
      // Only the Admin role manages report requests; Sales and Reports and Finance list and
      // download the reports they produce ("Downloading analytics reports", roles table).
      if (key.role !== 'ADMIN') {
        return appleError(
          res,
          403,
          'FORBIDDEN_ERROR',
          'This request is forbidden for security reasons',
          'The API key in use does not allow this request',
        );
      }
      if (
        accessType === 'ONGOING' &&
        ofApp.some((q) => q.accessType === 'ONGOING' && !q.stoppedDueToInactivity)
      ) {
        return appleError(
          res,
          409,
          'STATE_ERROR',
          'The request cannot be fulfilled because of the state of another resource.',
          'You already have such an entity',
        );
      }
      const created = { id: `req-${nextId++}`, appId, accessType, stoppedDueToInactivity: false };
      requests.push(created);
      return json(201, {
        data: {
          type: 'analyticsReportRequests',
          id: created.id,
          attributes: { accessType, stoppedDueToInactivity: false },
        },
        links: { self: `${origin}/v1/analyticsReportRequests/${created.id}` },
      });
    }
    if (
      (m = /^\/v1\/analyticsReportRequests\/([^/]+)\/reports$/.exec(url.pathname)) &&
      req.method === 'GET'
    ) {
      count('reports');
      const q = requests.find((x) => x.id === decodeURIComponent(m![1]!));
      if (!q) return notFound();
      const category = url.searchParams.get('filter[category]');
      const all = [
        ...(['engagement', 'downloads'] as const).map((k) => ({
          id: `r~${q.appId}~${k}`,
          category: REPORT_NAMES[k].category,
          name: detailed.has(q.appId) ? DETAILED_REPORTS[k].name : REPORT_NAMES[k].name,
        })),
        ...OTHER_REPORTS.map((o, i) => ({ id: `r~${q.appId}~other${i}`, ...o })),
      ].filter((x) => !category || category.split(',').includes(x.category));
      return json(
        200,
        page(
          url,
          all.map((x) => ({
            type: 'analyticsReports',
            id: x.id,
            attributes: { name: x.name, category: x.category },
          })),
        ),
      );
    }
    if (
      (m = /^\/v1\/analyticsReports\/([^/]+)\/instances$/.exec(url.pathname)) &&
      req.method === 'GET'
    ) {
      count('instances');
      const [, appId, kind] = decodeURIComponent(m[1]!).split('~');
      if (
        !appId ||
        !apps.has(appId) ||
        (kind !== 'engagement' && kind !== 'downloads' && !kind?.startsWith('other'))
      )
        return notFound();
      const granularity = url.searchParams.get('filter[granularity]');
      const items: unknown[] = [];
      if (kind === 'engagement' || kind === 'downloads') {
        for (let p = first + 1; p <= lastP; p++) {
          if (granularity && granularity !== 'DAILY') break;
          items.push({
            type: 'analyticsReportInstances',
            id: `i~${appId}~${kind}~${p}`,
            attributes: { granularity: 'DAILY', processingDate: iso(p) },
          });
        }
      }
      return json(200, page(url, items));
    }
    if (
      (m = /^\/v1\/analyticsReportInstances\/([^/]+)\/segments$/.exec(url.pathname)) &&
      req.method === 'GET'
    ) {
      count('segments');
      const id = decodeURIComponent(m[1]!);
      const [, appId, kind, p] = id.split('~');
      if (!appId || !apps.has(appId) || (kind !== 'engagement' && kind !== 'downloads'))
        return notFound();
      const files = segmentsOf(appId, kind, Number(p));
      const expired = opts.expireFirstListing === true && !listed.has(id);
      listed.add(id);
      const expires = expired ? Date.now() - 1 : Date.now() + (opts.segmentTtlMs ?? 300_000);
      return json(
        200,
        page(
          url,
          files.map((bytes, n) => {
            const segId = `${appId}~${kind}~${p}~${n}`;
            return {
              type: 'analyticsReportSegments',
              id: `s~${segId}`,
              attributes: {
                url: `${origin}/analytics-segments/${encodeURIComponent(segId)}?expires=${expires}&sig=${sign(`${segId}|${expires}`)}`,
                checksum: createHash('md5').update(bytes).digest('hex'),
                sizeInBytes: bytes.length,
              },
            };
          }),
        ),
      );
    }
    return notFound();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        appleError(
          res,
          500,
          'UNEXPECTED_ERROR',
          'An unexpected error occurred.',
          (error as Error).message,
        );
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  origin = `http://${opts.host ?? '127.0.0.1'}:${port}`;

  return {
    url: origin,
    hits,
    requests: () => requests.map((q) => ({ ...q })),
    setLastProcessingDate: (date) => {
      lastP = day(date);
      segmentCache.clear();
    },
    apiRequestTimes: () => [...requestTimes],
    truth: (appId, kind) => {
      const app = apps.get(appId);
      const out = new Map<string, TRecord[]>();
      if (!app) return out;
      for (let p = first + 1; p <= lastP; p++) {
        for (const [d, v] of instanceDays(p)) out.set(d, dayRecords(app, kind, d, v));
      }
      return out;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
