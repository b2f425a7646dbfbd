import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { prepareReportDataset, type TPreparedDataset, type TRowInput } from '@aso/analytics';
import { ZChartData } from '@aso/contracts';
import { ResponseSerializationError } from 'fastify-type-provider-zod';

/**
 * Prepared datasets for the reads of issue 10 (`GET /api/chart-data/{id}` and
 * `GET /api/reports/{id}`), kept per process in a bounded LRU cache.
 *
 * A merged dataset never changes after the merge (it only expires or is deleted), so what
 * every read derived from it again (parsing the stored JSON, checking it against `ZChartData`,
 * serializing it, parsing its dates, resolving its columns, reading its numbers) is done once
 * per dataset and process, and a report answer once per range. The cache holds no access
 * decision: callers check that the dataset is the caller's and live (`findLiveDataset`) on
 * every request before they use an entry.
 */

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Content codings the chart-data answer is kept in besides identity, preferred first. */
export const CHART_CODINGS = ['br', 'gzip'] as const;
export type TChartCoding = (typeof CHART_CODINGS)[number];

/**
 * Brotli quality of the kept answer: 5 compresses a 2.4 MB answer to about 120 kB in about
 * 20 ms (once per dataset and process, on the thread pool); 11 would take seconds.
 */
const BROTLI_QUALITY = 5;

/** Report answers kept per dataset (by range); the least recently read goes first. */
export const REPORTS_PER_DATASET = 16;

/** One representation of the chart-data answer. */
export interface TChartBody {
  body: Buffer;
  /**
   * Strong ETag: the dataset id, a digest of the JSON bytes (so a representation that changes
   * with another release never shares a tag with the old one) and the content coding.
   */
  etag: string;
}

/** The chart-data answer of a dataset, rendered once and compressed once per coding. */
export interface TChartAnswer {
  /** `JSON.stringify` of the rows checked by `ZChartData` (the zod serializer's answer), UTF-8. */
  identity: TChartBody;
  /**
   * The same bytes compressed, by content coding, from the first request that accepts it
   * (see {@link DatasetCache.chartBody}).
   */
  encoded: Partial<Record<TChartCoding, Promise<TChartBody>>>;
}

/** One dataset prepared for reads. */
export interface TPreparedReads {
  /** Dataset id (the `datasets` row's uuid). */
  id: string;
  /**
   * `expires_at` of the dataset row (ms since epoch): the entry serves only a row with this
   * expiry (a stamp of the row besides its id) and is dropped once it has passed.
   */
  expiresAt: number;
  /**
   * The chart-data answer, or the contract violation of the stored rows (answered as a 500
   * "answer does not match its contract", as the route's serializer did before).
   */
  chart: TChartAnswer | { error: ResponseSerializationError };
  /** The rows with dates parsed, columns resolved and counts computed, for KPI reports. */
  report: TPreparedDataset;
  /**
   * Report answers (JSON checked against `ZKpiReport`) by applied range `start..end`, least
   * recently read first; filled through {@link DatasetCache.keepReport}.
   */
  reports: Map<string, Buffer>;
  /** Estimated memory held by the entry (bytes): see {@link estimateBytes}. */
  bytes: number;
}

/** The dataset row facts an entry is checked against (from `findLiveDataset`). */
export interface TDatasetStamp {
  id: string;
  expires_at: Date;
}

/** Route named by a contract violation of the stored rows. */
const CHART_ROUTE = '/api/chart-data/:downloadId';

/**
 * Memory of a prepared dataset before report answers and compressed answers are added: its
 * JSON bytes twice, once for the rendered answer and once for the parsed rows with their
 * precomputed counts (measured on a 5-year dataset of 34 columns: 2.4 MB of JSON, 0.6 MB of
 * row objects, 0.5 MB of counts).
 */
export function estimateBytes(jsonBytes: number): number {
  return 2 * jsonBytes;
}

/** Short suffix of the ETag of each content coding. */
const CODING_TAG: Record<TChartCoding, string> = { br: 'br', gzip: 'gz' };

/**
 * Prepares `rows` of the dataset `stamp` for reads: the chart-data answer (`rows` checked once
 * against `ZChartData`, serialized, tagged) and the report dataset of @aso/analytics
 * (`prepareReportDataset`). `rows` are kept by the result; do not modify them afterwards.
 */
export function prepareReads(stamp: TDatasetStamp, rows: TRowInput[]): TPreparedReads {
  const checked = ZChartData.safeParse(rows);
  // Exactly what fastify-type-provider-zod's serializer sent: JSON of the schema's output.
  const json = Buffer.from(JSON.stringify(checked.success ? checked.data : rows), 'utf8');
  const tag = `${stamp.id}.${createHash('sha256').update(json).digest('base64url').slice(0, 22)}`;
  return {
    id: stamp.id,
    expiresAt: stamp.expires_at.getTime(),
    chart: checked.success
      ? { identity: { body: json, etag: `"${tag}"` }, encoded: {} }
      : { error: new ResponseSerializationError('GET', CHART_ROUTE, { cause: checked.error }) },
    report: prepareReportDataset(rows),
    reports: new Map(),
    bytes: estimateBytes(json.length),
  };
}

/** `body` compressed in `coding`, on the thread pool. */
async function compress(body: Buffer, coding: TChartCoding): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body);
  return brotliAsync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    },
  });
}

/**
 * The content coding to answer with (RFC 9110 section 12.5.3): the first of
 * {@link CHART_CODINGS} that `Accept-Encoding` accepts (named or through `*`, with a q-value
 * above 0), else null for identity.
 */
export function pickChartCoding(acceptEncoding: string | undefined): TChartCoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (!name) continue;
    const weight = params.find((p) => p.startsWith('q='));
    const value = weight === undefined ? 1 : Number(weight.slice(2));
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  return CHART_CODINGS.find((c) => (q.get(c) ?? q.get('*') ?? 0) > 0) ?? null;
}

/**
 * Whether an `If-None-Match` header matches `etag` (RFC 9110 section 13.1.2: `*` or a list of
 * tags compared weakly, i.e. ignoring `W/`).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const wanted = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === wanted);
}

/** Options of {@link DatasetCache}. */
export interface TDatasetCacheOptions {
  /** Bound of the entries' estimated bytes together; 0 keeps nothing (every read prepares). */
  maxBytes: number;
  /** Clock (ms since epoch), for dropping expired entries; `Date.now` by default. */
  now?: () => number;
}

/**
 * A bounded LRU cache of {@link TPreparedReads} by dataset id. The bound is on estimated
 * bytes; the least recently used entries go first, entries past their dataset's expiry go at
 * the next insertion, and an entry larger than the whole bound is returned but not kept.
 * Concurrent reads of a dataset that is not cached share one load.
 */
export class DatasetCache {
  readonly maxBytes: number;
  readonly #now: () => number;
  /** Entries in least-recently-used-first order (a Map keeps insertion order). */
  readonly #entries = new Map<string, TPreparedReads>();
  readonly #loading = new Map<string, Promise<TPreparedReads | null>>();
  #bytes = 0;

  constructor(options: TDatasetCacheOptions) {
    if (!Number.isFinite(options.maxBytes) || options.maxBytes < 0)
      throw new RangeError('maxBytes must be a finite number >= 0');
    this.maxBytes = options.maxBytes;
    this.#now = options.now ?? Date.now;
  }

  /** Number of entries kept. */
  get size(): number {
    return this.#entries.size;
  }

  /** Estimated bytes of the entries kept. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether an entry for dataset `id` is kept (does not touch its recency). */
  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /**
   * The prepared dataset `stamp.id`: the kept entry when it was prepared from the same dataset
   * row (same `expires_at`), else the result of `load` (shared by concurrent callers, kept
   * when it fits). `load` answers null when the dataset is gone; null is returned and nothing
   * is kept. Errors of `load` reach every caller waiting for it and nothing is kept.
   */
  async get(
    stamp: TDatasetStamp,
    load: () => Promise<TPreparedReads | null>,
  ): Promise<TPreparedReads | null> {
    const expiresAt = stamp.expires_at.getTime();
    const kept = this.#entries.get(stamp.id);
    if (kept && kept.expiresAt === expiresAt) {
      this.#touch(kept);
      return kept;
    }
    if (kept) this.delete(stamp.id);
    const pending = this.#loading.get(stamp.id);
    if (pending) {
      const shared = await pending;
      if (shared === null || shared.expiresAt === expiresAt) return shared;
    }
    const loading = load().then((entry) => {
      if (entry) this.#keep(entry);
      return entry;
    });
    this.#loading.set(stamp.id, loading);
    try {
      return await loading;
    } finally {
      if (this.#loading.get(stamp.id) === loading) this.#loading.delete(stamp.id);
    }
  }

  /**
   * The chart answer of `entry` in `coding` (null: identity). A coding is compressed once, on
   * the thread pool, by the first request that asks for it (concurrent ones share it) and kept
   * with the entry, its bytes counting towards the bound; a failed compression is not kept.
   */
  async chartBody(
    entry: TPreparedReads,
    chart: TChartAnswer,
    coding: TChartCoding | null,
  ): Promise<TChartBody> {
    if (coding === null) return chart.identity;
    let pending = chart.encoded[coding];
    if (!pending) {
      const { body, etag } = chart.identity;
      pending = compress(body, coding).then((packed) => ({
        body: packed,
        etag: etag.replace(/"$/, `.${CODING_TAG[coding]}"`),
      }));
      chart.encoded[coding] = pending;
      pending.then(
        (done) => {
          if (this.#entries.get(entry.id) !== entry) return;
          this.#resize(entry, done.body.length);
          this.#evictBeyondBound(entry);
        },
        () => {
          if (chart.encoded[coding] === pending) delete chart.encoded[coding];
        },
      );
    }
    return pending;
  }

  /** The report answer of `entry` for range key `key`, if kept (it becomes the most recent). */
  report(entry: TPreparedReads, key: string): Buffer | undefined {
    const body = entry.reports.get(key);
    if (body) {
      entry.reports.delete(key);
      entry.reports.set(key, body);
    }
    return body;
  }

  /**
   * Keeps the report answer `body` of range key `key` with `entry` when the entry is kept (at
   * most {@link REPORTS_PER_DATASET} per dataset; its bytes count towards the bound).
   */
  keepReport(entry: TPreparedReads, key: string, body: Buffer): void {
    if (this.#entries.get(entry.id) !== entry || entry.reports.has(key)) return;
    if (entry.reports.size >= REPORTS_PER_DATASET) {
      const [oldest, dropped] = entry.reports.entries().next().value!;
      entry.reports.delete(oldest);
      this.#resize(entry, -dropped.length);
    }
    entry.reports.set(key, body);
    this.#resize(entry, body.length);
    this.#evictBeyondBound(entry);
  }

  /** Drops the entry of dataset `id`, if kept. */
  delete(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#bytes -= entry.bytes;
  }

  /** Drops every entry. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #touch(entry: TPreparedReads): void {
    // Most recently used goes last.
    this.#entries.delete(entry.id);
    this.#entries.set(entry.id, entry);
  }

  #resize(entry: TPreparedReads, delta: number): void {
    entry.bytes += delta;
    this.#bytes += delta;
  }

  /** Drops the least recently used entries other than `keep` until the bound holds. */
  #evictBeyondBound(keep: TPreparedReads): void {
    for (const [id, e] of this.#entries) {
      if (this.#bytes <= this.maxBytes) return;
      if (e !== keep) this.delete(id);
    }
    if (this.#bytes > this.maxBytes) this.delete(keep.id);
  }

  #keep(entry: TPreparedReads): void {
    this.delete(entry.id);
    if (entry.bytes > this.maxBytes) return;
    const now = this.#now();
    for (const [id, e] of this.#entries) if (e.expiresAt <= now) this.delete(id);
    this.#entries.set(entry.id, entry);
    this.#bytes += entry.bytes;
    this.#evictBeyondBound(entry);
  }
}
