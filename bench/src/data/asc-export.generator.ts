import { stringify } from 'csv-stringify/sync';

/**
 * CONSTRUCTED App Store Connect analytics exports for the benchmarks, in the layout of the
 * constructed samples of `fixtures/asc-analytics` (SOURCES.md): UTF-8 BOM, CRLF, a quoted
 * key/value preamble (Name, Date Range, Territory, View) and a blank line, a quoted header row,
 * then one row per day with the date unquoted and numbers written with thousands separators
 * (so '1,234' is quoted). Values are a seeded daily series with weekly seasonality; per source
 * Total Downloads = First-Time Downloads + Redownloads, consistent across the two files.
 */

/** Source types in the samples' column order (Apple: "View acquisition sources"). */
export const EXPORT_SOURCES = [
  'App Store Search',
  'App Store Browse',
  'App Referrer',
  'Web Referrer',
  'Institutional Purchase',
  'Unavailable',
  'Event Notification',
] as const;

/** Typical daily first-time downloads, impressions and redownloads per source (sample magnitudes). */
const SCALE: Record<(typeof EXPORT_SOURCES)[number], { ftd: number; imp: number; re: number }> = {
  'App Store Search': { ftd: 400, imp: 9_000, re: 80 },
  'App Store Browse': { ftd: 160, imp: 15_000, re: 45 },
  'App Referrer': { ftd: 110, imp: 1_200, re: 25 },
  'Web Referrer': { ftd: 48, imp: 800, re: 10 },
  'Institutional Purchase': { ftd: 2, imp: 0, re: 0 },
  Unavailable: { ftd: 2, imp: 0, re: 0 },
  'Event Notification': { ftd: 3, imp: 65, re: 0 },
};

const SCALES = EXPORT_SOURCES.map((source) => SCALE[source]);

/** Which export: the 'Conversion Rate' view or the 'Redownloads' view. */
export type TExportKind = 'conversion' | 'redownloads';

/** What to generate. */
export interface TExportSpec {
  kind: TExportKind;
  appName: string;
  territory: string;
  /** First day, `YYYY-MM-DD`. */
  startDay: string;
  /** Exactly this many days; or, when absent, as many as fit in `targetBytes`. */
  rows?: number;
  /** Size to stay at or under (bytes) when `rows` is absent. */
  targetBytes?: number;
  /** Years as 2 digits (M/D/YY, as exported; only for 1950-2049) or 4 (M/D/YYYY, for long spans). */
  yearDigits?: 2 | 4;
  seed?: number;
}

/** A generated export. */
export interface TGeneratedExport {
  bytes: Buffer;
  rows: number;
  /** First and last day, `YYYY-MM-DD`. */
  firstDay: string;
  lastDay: string;
  headers: string[];
}

const MS_PER_DAY = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CRLF = '\r\n';
const BOM = '\ufeff';

/** The header row of an export kind (the samples' columns). */
export function exportHeaders(kind: TExportKind): string[] {
  if (kind === 'conversion') {
    return [
      'Date',
      ...EXPORT_SOURCES.flatMap((s) => [
        `${s} First-Time Downloads`,
        `${s} Impressions (Unique Devices)`,
        `${s} Total Downloads`,
      ]),
      'Total First-Time Downloads',
      'Total Impressions',
      'Total Downloads',
    ];
  }
  return ['Date', ...EXPORT_SOURCES.map((s) => `${s} Redownloads`), 'Total Redownloads'];
}

/** A deterministic number in [0, 1) for (seed, day, slot): one integer hash, no state. */
function noise(seed: number, day: number, slot: number): number {
  let h =
    Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^
    Math.imul(day, 0xc2b2ae35) ^
    Math.imul(slot + 1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  return ((h ^ (h >>> 15)) >>> 0) / 4294967296;
}

/** One day's values per source: first-time downloads, impressions, redownloads. */
export function dayValues(
  seed: number,
  dayNumber: number,
): { ftd: number; imp: number; re: number }[] {
  // Weekly seasonality, weekends higher as in the samples; 1970-01-01 (day 0) was a Thursday.
  const weekday = (((dayNumber + 4) % 7) + 7) % 7;
  const season = weekday === 0 || weekday === 6 ? 1.25 : 1;
  const out: { ftd: number; imp: number; re: number }[] = [];
  for (let i = 0; i < SCALES.length; i++) {
    const s = SCALES[i]!;
    out.push({
      ftd: Math.round(s.ftd * season * (0.6 + 0.8 * noise(seed, dayNumber, i * 3))),
      imp: Math.round(s.imp * season * (0.6 + 0.8 * noise(seed, dayNumber, i * 3 + 1))),
      re: Math.round(s.re * season * (0.6 + 0.8 * noise(seed, dayNumber, i * 3 + 2))),
    });
  }
  return out;
}

/** '1,234' for 1234 (the export writes thousands separators; Intl is too slow for 20 MB). */
const count = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function dayOf(iso: string): number {
  const t = Date.parse(`${iso}T00:00:00Z`);
  if (Number.isNaN(t)) throw new Error(`startDay '${iso}' is not a day YYYY-MM-DD`);
  return Math.round(t / MS_PER_DAY);
}

function isoOf(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

function exportDate(day: number, yearDigits: 2 | 4): string {
  const d = new Date(day * MS_PER_DAY);
  const y = d.getUTCFullYear();
  if (yearDigits === 2 && (y < 1950 || y > 2049))
    throw new Error(`year ${y} cannot be written with 2 digits (M/D/YY means 1950-2049)`);
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${yearDigits === 2 ? String(y % 100).padStart(2, '0') : y}`;
}

/** 'Jun 1, 2025' */
function rangeDate(day: number): string {
  const d = new Date(day * MS_PER_DAY);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

function row(kind: TExportKind, seed: number, day: number, yearDigits: 2 | 4): string[] {
  const values = dayValues(seed, day);
  const date = exportDate(day, yearDigits);
  if (kind === 'conversion') {
    const cells = values.flatMap((v) => [count(v.ftd), count(v.imp), count(v.ftd + v.re)]);
    const sum = (f: (v: (typeof values)[number]) => number) => values.reduce((a, v) => a + f(v), 0);
    return [
      date,
      ...cells,
      count(sum((v) => v.ftd)),
      count(sum((v) => v.imp)),
      count(sum((v) => v.ftd + v.re)),
    ];
  }
  return [date, ...values.map((v) => count(v.re)), count(values.reduce((a, v) => a + v.re, 0))];
}

/**
 * Generates one export. With `targetBytes`, rows are added until the next would pass it.
 * @throws Error when neither `rows` nor `targetBytes` is given, or a date cannot be written.
 */
export function generateExport(spec: TExportSpec): TGeneratedExport {
  if (spec.rows === undefined && spec.targetBytes === undefined)
    throw new Error('give rows or targetBytes');
  const seed = spec.seed ?? 20_250_601;
  const yearDigits = spec.yearDigits ?? 2;
  const headers = exportHeaders(spec.kind);
  const first = dayOf(spec.startDay);
  const headerText = stringify([headers], { quoted: true, record_delimiter: CRLF });
  // The preamble's date range has a fixed length for a given span width, so reserve it up front.
  const preambleFor = (last: number) =>
    stringify(
      [
        ['Name', spec.appName],
        ['Date Range', `${rangeDate(first)} - ${rangeDate(last)}`],
        ['Territory', spec.territory],
        ['View', spec.kind === 'conversion' ? 'Conversion Rate' : 'Redownloads'],
      ],
      { quoted: true, record_delimiter: CRLF },
    ) + CRLF;
  const reserve = Buffer.byteLength(BOM + preambleFor(first + 365_000) + headerText) + 8;
  const lines: string[] = [];
  let size = reserve;
  const BATCH = 512;
  let full = false;
  for (let start = 0; !full && (spec.rows === undefined || start < spec.rows); start += BATCH) {
    const n = spec.rows === undefined ? BATCH : Math.min(BATCH, spec.rows - start);
    const batch = Array.from({ length: n }, (_, k) =>
      row(spec.kind, seed, first + start + k, yearDigits),
    );
    // No cell holds a line break, so the batch splits back into its rows.
    for (const text of stringify(batch, { record_delimiter: CRLF }).split(CRLF).slice(0, n)) {
      const line = text + CRLF;
      if (spec.rows === undefined && size + line.length > spec.targetBytes!) {
        full = true;
        break;
      }
      lines.push(line);
      size += line.length;
    }
  }
  const last = first + lines.length - 1;
  const bytes = Buffer.from(BOM + preambleFor(last) + headerText + lines.join(''), 'utf8');
  return { bytes, rows: lines.length, firstDay: isoOf(first), lastDay: isoOf(last), headers };
}
