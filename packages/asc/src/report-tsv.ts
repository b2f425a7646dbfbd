import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';

/** Which of the two imported reports a row comes from. */
export type TAscReportKind = 'engagement' | 'downloads';

/** How one Analytics Reports report is found, read and judged complete. */
export interface TAscReportDef {
  kind: TAscReportKind;
  /** `filter[category]` of `GET /v1/analyticsReportRequests/{id}/reports`. */
  category: string;
  /** Report names in order of preference (the Standard report; the Detailed one if alone). */
  names: readonly string[];
  /** The column whose value says what a row counts (an event, a download type). */
  measureColumn: string;
  /** Columns a segment must have; one missing fails the segment, naming it. */
  required: readonly string[];
  /**
   * Days after a Date until its figures are complete: "Completeness: Within three days"
   * (https://developer.apple.com/documentation/analytics-reports/app-store-discovery-and-engagement
   * and .../app-downloads).
   */
  completenessDays: number;
}

/**
 * The two reports imported (https://developer.apple.com/documentation/analytics-reports):
 * App Store Discovery and Engagement (impressions and product page views by source type,
 * territory, device) and App Downloads (first-time downloads and redownloads by the same).
 */
export const ASC_REPORTS: readonly TAscReportDef[] = [
  {
    kind: 'engagement',
    category: 'APP_STORE_ENGAGEMENT',
    names: [
      'App Store Discovery and Engagement Standard',
      'App Store Discovery and Engagement Detailed',
    ],
    measureColumn: 'Event',
    required: [
      'Date',
      'App Apple Identifier',
      'Event',
      'Source Type',
      'Territory',
      'Device',
      'Counts',
    ],
    completenessDays: 3,
  },
  {
    kind: 'downloads',
    category: 'COMMERCE',
    names: ['App Downloads Standard', 'App Downloads Detailed'],
    measureColumn: 'Download Type',
    required: [
      'Date',
      'App Apple Identifier',
      'Download Type',
      'Source Type',
      'Territory',
      'Device',
      'Counts',
    ],
    completenessDays: 3,
  },
];

/** Thrown when a segment cannot be read; the message names what is wrong. */
export class AscReportError extends Error {
  override readonly name = 'AscReportError';
}

/**
 * The stored form of an Event or Download Type value: lower-case letters and digits only
 * ("Page view" -> `pageview`, "First-time download" -> `firsttimedownload`), so a change of
 * case, spacing or hyphenation in Apple's values does not lose figures.
 */
export const canonicalMeasure = (value: string): string =>
  value.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Measures the metrics read, in their {@link canonicalMeasure} form: impressions (Event
 * "Impression"), product page views (Event "Page view"), first-time downloads and
 * redownloads (Download Type).
 */
export const ASC_MEASURES = {
  impressions: { kind: 'engagement', measure: 'impression' },
  productPageViews: { kind: 'engagement', measure: 'pageview' },
  firstTimeDownloads: { kind: 'downloads', measure: 'firsttimedownload' },
  redownloads: { kind: 'downloads', measure: 'redownload' },
} as const satisfies Record<string, { kind: TAscReportKind; measure: string }>;

/**
 * One stored figure: `counts` (the sum of the "Counts" column) of one Date, measure (the
 * Event or Download Type value, {@link canonicalMeasure}), source type, territory and device, summed over the report's
 * other columns (page type, app version, platform version...). "Unique Counts" are not kept:
 * they cannot be summed across rows.
 */
export interface TAscFigure {
  date: string;
  measure: string;
  sourceType: string;
  territory: string;
  device: string;
  counts: number;
}

/**
 * The text of an instance from its segments' bytes, in the order listed. Each segment is
 * normally a gzip file of its own (with its own header line); a gzip stream cut across
 * segments is read by joining the bytes first. Throws AscReportError when neither reads.
 */
export function gunzipSegments(segments: readonly Buffer[]): string[] {
  try {
    return segments.map((s) => gunzipSync(s).toString('utf8'));
  } catch {
    try {
      return [gunzipSync(Buffer.concat(segments)).toString('utf8')];
    } catch {
      throw new AscReportError('segment is not gzip data');
    }
  }
}

/** csv-parse's codes of a quote it could not place (a stray `"` in a value). */
const QUOTE_ERRORS = new Set([
  'CSV_QUOTE_NOT_CLOSED',
  'CSV_INVALID_CLOSING_QUOTE',
  'INVALID_OPENING_QUOTE',
]);

/**
 * One segment's records by header name. Quotes are relaxed: a `"` inside a value (an App
 * Name such as `Calm "Notes"`, `12" screen`) is kept as text. A quote that opens a value and
 * is never closed would swallow the rest of the segment: then the segment is read again with
 * quoting off, which only succeeds when every line has the header's columns. Throws
 * AscReportError naming a missing required column, or what csv-parse could not read.
 */
function parseSegment(def: TAscReportDef, text: string): Record<string, string>[] {
  const what = def.names[0] ?? def.kind;
  const read = (quote: '"' | false) =>
    parse<Record<string, string>>(text, {
      delimiter: '\t',
      bom: true,
      skip_empty_lines: true,
      quote,
      relax_quotes: true,
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim());
        const missing = def.required.filter((c) => !names.includes(c));
        if (missing.length > 0) {
          throw new AscReportError(
            `${what}: segment lacks the column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}`,
          );
        }
        return names;
      },
    });
  try {
    try {
      return read('"');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && QUOTE_ERRORS.has(code)) return read(false);
      throw error;
    }
  } catch (error) {
    if (error instanceof AscReportError) throw error;
    throw new AscReportError(`${what}: ${(error as Error).message}`);
  }
}

/**
 * Reads the tab-separated text of one instance (`texts`: each segment's text) BY HEADER NAME
 * with csv-parse: columns in any order, extra columns ignored, quoted values may hold tabs,
 * a stray quote inside a value is kept as text (see {@link parseSegment});
 * a missing required column throws AscReportError naming it; a line repeating the header
 * (the next segment's) is skipped. Rows of another app (`App Apple Identifier`) are skipped.
 * Returns the figures summed per (Date, measure, source type, territory, device).
 * Throws AscReportError on a bad Date or Counts (naming the line) or past `maxRows` rows.
 */
export function readReportTsv(
  def: TAscReportDef,
  texts: readonly string[],
  appId: string,
  maxRows: number,
): TAscFigure[] {
  const sums = new Map<string, TAscFigure>();
  let rows = 0;
  for (const text of texts) {
    if (text.trim() === '') continue;
    const records = parseSegment(def, text);
    for (const [index, r] of records.entries()) {
      if (r['Date'] === 'Date') continue;
      const app = (r['App Apple Identifier'] ?? '').trim();
      if (app !== '' && app !== appId) continue;
      if (++rows > maxRows) {
        throw new AscReportError(
          `${def.names[0] ?? def.kind}: more than ${maxRows} rows in one instance`,
        );
      }
      const date = (r['Date'] ?? '').trim();
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
        throw new AscReportError(
          `${def.names[0] ?? def.kind}: row ${index + 2} has the Date "${date.slice(0, 20)}"`,
        );
      }
      const raw = (r['Counts'] ?? '').trim();
      const counts = raw === '' ? 0 : Number(raw);
      if (!Number.isFinite(counts) || counts < 0) {
        throw new AscReportError(
          `${def.names[0] ?? def.kind}: row ${index + 2} has the Counts "${raw.slice(0, 20)}"`,
        );
      }
      const f = {
        date,
        measure: canonicalMeasure(r[def.measureColumn] ?? ''),
        sourceType: (r['Source Type'] ?? '').trim(),
        territory: (r['Territory'] ?? '').trim(),
        device: (r['Device'] ?? '').trim(),
      };
      const key = `${f.date}\t${f.measure}\t${f.sourceType}\t${f.territory}\t${f.device}`;
      const had = sums.get(key);
      if (had) had.counts += counts;
      else sums.set(key, { ...f, counts });
    }
  }
  return [...sums.values()];
}

/**
 * Whether a Date's figures are still provisional: the newest instance carrying the Date was
 * processed fewer than `completenessDays` days after it. An instance holds the day before its
 * processing date, not yet complete, and earlier days complete or corrected
 * (https://developer.apple.com/documentation/analytics-reports/data-completeness-corrections).
 */
export function isProvisional(
  date: string,
  processingDate: string,
  completenessDays: number,
): boolean {
  const days =
    (Date.parse(`${processingDate}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000;
  return days < completenessDays;
}
