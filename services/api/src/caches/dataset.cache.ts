import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { prepareReportDataset, type TPreparedDataset, type TRowInput } from '@aso/analytics';
import { ZChartData } from '@aso/contracts';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import negotiate from '@fastify/accept-negotiator';
import { LRUCache } from 'lru-cache';

/**
 * Prepared datasets for the reads (`GET /api/chart-data/{id}` and
 * `GET /api/reports/{id}`), kept per process in a bounded LRU cache.
 *
 * A merged dataset never changes after the merge (it only expires or is deleted), so what
 * every read derived from it again (parsing the stored JSON, checking it against `ZChartData`,
 * serializing it, parsing its dates, resolving its columns, reading its numbers) is done once
 * per dataset and process, and a report answer once per range, in a bounded LRU cache
 * (`lru-cache`). The cache holds no access decision: callers check that the dataset is the
 * caller's and live (`findLiveDataset`) on every request before they use an entry.
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

/** One representation of the chart-data answer. */
export interface TChartBody {
  body: Buffer;
  /**
   * Strong ETag: the dataset id, a digest of the JSON bytes (so a representation that changes
   * with another release never shares a tag with the old one) and the content coding.
   */
  etag: string;
}

/** The chart-data answer of a dataset, rendered once (see {@link DatasetCache.chartBody} for its codings). */
export interface TChartAnswer {
  /** `JSON.stringify` of the rows checked by `ZChartData` (the zod serializer's answer), UTF-8. */
  identity: TChartBody;
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
      ? { identity: { body: json, etag: `"${tag}"` } }
      : { error: new ResponseSerializationError('GET', CHART_ROUTE, { cause: checked.error }) },
    report: prepareReportDataset(rows),
    bytes: estimateBytes(json.length),
  };
}

/** `body` compressed in `coding`, on the thread pool (also for other answers kept ahead). */
export async function compress(body: Buffer, coding: TChartCoding): Promise<Buffer> {
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
 * The content coding to answer with (RFC 9110 section 12.5.3), by `@fastify/accept-negotiator`
 * (the negotiation of @fastify/compress and @fastify/static): the coding of
 * {@link CHART_CODINGS} with the highest q-value in `Accept-Encoding` (named or through `*`,
 * above 0), the first of them on a tie; null for identity. Coding names are compared
 * case-insensitively.
 */
export function pickChartCoding(acceptEncoding: string | undefined): TChartCoding | null {
  if (!acceptEncoding) return null;
  return negotiate(acceptEncoding.toLowerCase(), [...CHART_CODINGS]);
}

/** Options of {@link DatasetCache}. */
export interface TDatasetCacheOptions {
  /** Bound of the kept answers' bytes together; 0 keeps nothing (every read prepares). */
  maxBytes: number;
  /** Clock (ms since epoch), for dropping expired entries; `Date.now` by default. */
  now?: () => number;
}

/** Most items kept whatever their size (lru-cache advises a count bound besides the byte bound). */
const MAX_ITEMS = 10_000;

/** What the cache holds: prepared datasets (by id), report answers and compressed chart answers. */
type TKept = TPreparedReads | TChartBody | Buffer;
/** Computes a missing value, or undefined when there is nothing to keep (the dataset is gone). */
type TCompute = () => Promise<TKept | undefined>;

function isPrepared(value: TKept | undefined): value is TPreparedReads {
  return value !== undefined && 'report' in value;
}

function keptBytes(value: TKept): number {
  const bytes = Buffer.isBuffer(value)
    ? value.length
    : 'body' in value
      ? value.body.length
      : value.bytes;
  // lru-cache takes sizes of at least 1.
  return Math.max(1, Math.ceil(bytes));
}

/**
 * Prepared datasets and the answers derived from them, per process, in one bounded LRU cache
 * of `lru-cache` by estimated bytes: a dataset's {@link TPreparedReads} (key: its id), its
 * report answers by applied range and its compressed chart answers (keys naming the dataset
 * row's id and expiry, so an answer is never served for another row). Each item lives until
 * its dataset's `expires_at` at most, and answers are kept only while their dataset is; the
 * least recently read go first when the bound is reached (an item larger than the whole bound
 * is returned but not kept), and expired items are dropped when the next dataset is prepared.
 * Concurrent reads of a missing item share one computation (`fetch` of lru-cache); a failed
 * one keeps nothing and reaches every caller. With `maxBytes` 0 nothing is kept or shared.
 */
export class DatasetCache {
  readonly maxBytes: number;
  readonly #now: () => number;
  /** Null when `maxBytes` is 0. */
  readonly #lru: LRUCache<string, TKept, TCompute> | null;

  constructor(options: TDatasetCacheOptions) {
    if (!Number.isFinite(options.maxBytes) || options.maxBytes < 0)
      throw new RangeError('maxBytes must be a finite number >= 0');
    this.maxBytes = Math.floor(options.maxBytes);
    this.#now = options.now ?? Date.now;
    this.#lru =
      this.maxBytes === 0
        ? null
        : new LRUCache<string, TKept, TCompute>({
            max: MAX_ITEMS,
            maxSize: this.maxBytes,
            sizeCalculation: keptBytes,
            // A load in flight takes no room: nothing is evicted for an item that turns out
            // larger than the bound.
            backgroundFetchSize: 0,
            fetchMethod: (_key, _stale, { context }) => context(),
            // Expiry is read from this clock at every access (not cached for a millisecond).
            perf: { now: () => this.#now() },
            ttlResolution: 0,
          });
  }

  /** Number of items kept (datasets, report answers, compressed answers). */
  get size(): number {
    return this.#lru?.size ?? 0;
  }

  /** Estimated bytes of the items kept. */
  get bytes(): number {
    return this.#lru?.calculatedSize ?? 0;
  }

  /** Whether a prepared dataset `id` is kept (does not touch its recency). */
  has(id: string): boolean {
    return isPrepared(this.#lru?.peek(id));
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
    const lru = this.#lru;
    if (!lru) return load();
    const expiresAt = stamp.expires_at.getTime();
    const kept = lru.get(stamp.id);
    if (isPrepared(kept) && kept.expiresAt === expiresAt) return kept;
    lru.purgeStale();
    const context = async () => (await load()) ?? undefined;
    const ttl = this.#ttl(expiresAt);
    // A load in flight for another row of the same id is awaited, then replaced.
    let loaded = await lru.fetch(stamp.id, { context, ttl, forceRefresh: kept !== undefined });
    if (isPrepared(loaded) && loaded.expiresAt !== expiresAt) {
      loaded = await lru.fetch(stamp.id, { context, ttl, forceRefresh: true });
    }
    return isPrepared(loaded) ? loaded : null;
  }

  /**
   * The chart answer of `entry` in `coding` (null: identity). A coding is compressed on the
   * thread pool by the first request that asks for it (concurrent ones share it) and kept
   * while `entry` is; a failed compression is not kept.
   */
  async chartBody(
    entry: TPreparedReads,
    chart: TChartAnswer,
    coding: TChartCoding | null,
  ): Promise<TChartBody> {
    if (coding === null) return chart.identity;
    const { body, etag } = chart.identity;
    const encode = async (): Promise<TChartBody> => ({
      body: await compress(body, coding),
      etag: etag.replace(/"$/, `.${CODING_TAG[coding]}"`),
    });
    const lru = this.#keeping(entry);
    if (!lru) return encode();
    const encoded = await lru.fetch(this.#derivedKey(entry, `coding:${coding}`), {
      context: encode,
      ttl: this.#ttl(entry.expiresAt),
    });
    return encoded as TChartBody;
  }

  /** The report answer of `entry` for range key `key`, if kept (it becomes the most recent). */
  report(entry: TPreparedReads, key: string): Buffer | undefined {
    const body = this.#lru?.get(this.#derivedKey(entry, `report:${key}`));
    return Buffer.isBuffer(body) ? body : undefined;
  }

  /**
   * Keeps the report answer `body` of range key `key` of `entry`, when that entry is kept (a
   * report is cheap next to preparing its dataset again).
   */
  keepReport(entry: TPreparedReads, key: string, body: Buffer): void {
    this.#keeping(entry)?.set(this.#derivedKey(entry, `report:${key}`), body, {
      ttl: this.#ttl(entry.expiresAt),
    });
  }

  /** The cache when `entry` is the kept prepared dataset of its id (recency untouched), else null. */
  #keeping(entry: TPreparedReads): LRUCache<string, TKept, TCompute> | null {
    return this.#lru?.peek(entry.id) === entry ? this.#lru : null;
  }

  /** Key of an answer derived from `entry`: the dataset row's id and expiry, and `what`. */
  #derivedKey(entry: TPreparedReads, what: string): string {
    return `${entry.id}@${entry.expiresAt}/${what}`;
  }

  /** Time to live of an item of a dataset expiring at `expiresAt` (ms since epoch), >= 1 ms. */
  #ttl(expiresAt: number): number {
    return Math.max(1, expiresAt - this.#now());
  }
}
