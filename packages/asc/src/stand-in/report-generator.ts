import { gzipSync } from 'node:zlib';
import type { TAscReportKind } from '../report-tsv';

/**
 * CONSTRUCTED report data for the App Store Connect stand-in: invented figures from a seeded
 * generator, in the documented columns of "App Store Discovery and Engagement Standard" and
 * "App Downloads Standard" (https://developer.apple.com/documentation/analytics-reports).
 * Nothing here was recorded from Apple.
 */

/** mulberry32: a small seeded PRNG (same seed, same sequence). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit hash of a string (FNV-1a), to seed per app, report and day. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The dimensions the generator spreads figures over. */
export interface TGeneratorShape {
  territories: readonly string[];
  devices: readonly string[];
  sourceTypes: readonly string[];
}

export const DEFAULT_SHAPE: TGeneratorShape = {
  territories: ['US', 'GB', 'DE'],
  devices: ['iPhone', 'iPad'],
  sourceTypes: [
    'App Store search',
    'App Store browse',
    'App referrer',
    'Web referrer',
    'Unavailable',
  ],
};

/** Columns of each report, in Apple's documented order. */
export const REPORT_COLUMNS: Record<TAscReportKind, readonly string[]> = {
  engagement: [
    'Date',
    'App Name',
    'App Apple Identifier',
    'Event',
    'Page Type',
    'Source Type',
    'Engagement Type',
    'Device',
    'Platform Version',
    'Territory',
    'Counts',
    'Unique Counts',
  ],
  downloads: [
    'Date',
    'App Name',
    'App Apple Identifier',
    'Download Type',
    'App Version',
    'Device',
    'Platform Version',
    'Source Type',
    'Source Info',
    'Campaign',
    'Page Type',
    'Page Title',
    'Pre-Order',
    'Territory',
    'Counts',
  ],
};

const ENGAGEMENT_EVENTS = ['Impression', 'Page view', 'Tap'] as const;
const DOWNLOAD_TYPES = ['First-time download', 'Redownload', 'Manual update'] as const;
const PAGE_TYPES = ['Product page', 'Store sheet'] as const;

/** One generated record: its column values by name. */
export type TRecord = Record<string, string>;

/** Which version of a Date's records an instance states. */
export type TDayVersion = 'first' | 'second' | 'final' | 'corrected';

/** Options of {@link ReportGenerator}. */
export interface TReportGeneratorOptions {
  seed: number;
  shape?: TGeneratorShape;
  /** Every `correctEvery`-th day (by day number) is corrected later (default 29). */
  correctEvery?: number;
}

/**
 * Generates the records of a Date in a given version: the final records are fixed by the
 * seed; `first` and `second` (the day before and two days before the processing date) hold
 * 60 % and 90 % of each count, floored; `corrected` (a later restatement) drops one record
 * and raises another by 7.
 */
export class ReportGenerator {
  readonly shape: TGeneratorShape;
  private readonly correctEvery: number;

  constructor(private readonly opts: TReportGeneratorOptions) {
    this.shape = opts.shape ?? DEFAULT_SHAPE;
    this.correctEvery = opts.correctEvery ?? 29;
  }

  /** Whether Date `date` gets a correction in a later instance. */
  isCorrected(date: string): boolean {
    return Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000) % this.correctEvery === 0;
  }

  /** The records of `date` for app `app` in `version`. */
  records(
    app: { id: string; name: string },
    kind: TAscReportKind,
    date: string,
    version: TDayVersion,
  ): TRecord[] {
    const random = rng(hash(`${this.opts.seed}|${app.id}|${kind}|${date}`));
    const out: TRecord[] = [];
    const measures = kind === 'engagement' ? ENGAGEMENT_EVENTS : DOWNLOAD_TYPES;
    for (const territory of this.shape.territories) {
      for (const device of this.shape.devices) {
        for (const sourceType of this.shape.sourceTypes) {
          for (const measure of measures) {
            const pages = kind === 'engagement' ? PAGE_TYPES : (['Product page'] as const);
            for (const pageType of pages) {
              const present = random() < 0.75;
              const base = Math.floor(random() * (measure === 'Impression' ? 4000 : 300));
              if (!present) continue;
              const common = {
                Date: date,
                'App Name': app.name,
                'App Apple Identifier': app.id,
                'Source Type': sourceType,
                Device: device,
                'Platform Version': 'iOS 18.2',
                Territory: territory,
                'Page Type': pageType,
              };
              out.push(
                kind === 'engagement'
                  ? {
                      ...common,
                      Event: measure,
                      'Engagement Type': measure === 'Tap' ? 'Tap' : '',
                      Counts: String(base),
                      'Unique Counts': String(Math.floor(base * 0.8)),
                    }
                  : {
                      ...common,
                      'Download Type': measure,
                      'App Version': '4.2',
                      'Source Info': sourceType === 'Web referrer' ? 'example.com' : '',
                      Campaign: '',
                      'Page Title': '',
                      'Pre-Order': 'No',
                      Counts: String(base),
                    },
              );
            }
          }
        }
      }
    }
    if (version === 'first' || version === 'second') {
      const share = version === 'first' ? 0.6 : 0.9;
      for (const r of out) r['Counts'] = String(Math.floor(Number(r['Counts']) * share));
    }
    if (version === 'corrected' && out.length > 2) {
      out.splice(1, 1);
      const last = out[out.length - 1]!;
      last['Counts'] = String(Number(last['Counts']) + 7);
    }
    return out;
  }
}

/**
 * Writes records as Apple's tab-separated text: a header of `columns` (any order; names not
 * in a record are written empty), values with a tab, quote or line break quoted.
 */
export function toTsv(records: readonly TRecord[], columns: readonly string[]): string {
  const cell = (v: string) => (/[\t"\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [columns.map(cell).join('\t')];
  for (const r of records) lines.push(columns.map((c) => cell(r[c] ?? '')).join('\t'));
  return `${lines.join('\n')}\n`;
}

/** Gzips text split into files of at most `rowsPerSegment` records, each with the header. */
export function gzipSegments(tsv: string, rowsPerSegment: number): Buffer[] {
  const [header = '', ...rows] = tsv.replace(/\n+$/, '').split('\n');
  const out: Buffer[] = [];
  for (let i = 0; i < Math.max(rows.length, 1); i += rowsPerSegment) {
    out.push(gzipSync(`${[header, ...rows.slice(i, i + rowsPerSegment)].join('\n')}\n`));
  }
  return out;
}
