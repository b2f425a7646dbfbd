import type { TChartCell, TChartDataRow, TMergedData, TUploadField } from '@aso/contracts';
import type { TDatasetRowsChunk } from '@aso/db';
import { isoFromDayNumber, NO_DAY } from './export-day.parser';
import { MAX_EXPORT_ROWS } from './export-limits';
import type { ParsedExport } from './export-result';
import { assertSameListing, assignRoles, territoryOf } from './exports.crosscheck';
import type { TExportDelimiter, TExportEncoding } from './text-decoder.stream';

/** Name of the column the merge adds (docs/product.md#merging-exports). */
export const TERRITORY_COLUMN = 'Territory';
/** Rows in an upload answer's preview (docs/product.md#entities: Upload result). */
export const PREVIEW_ROWS = 10;

/** What one input file contributed. */
export interface TMergedFileInfo {
  field: TUploadField;
  rows: number;
  skippedRows: number;
  headerLine: number;
  encoding: TExportEncoding;
  delimiter: TExportDelimiter;
  appName: string | null;
  territory: string | null;
  dateRange: string | null;
  view: string | null;
}

/** A column 'Redownloads'/'Re-Downloads' takes its values from the redownloads file. */
export function isRedownloadsColumn(name: string): boolean {
  return /re-?downloads/i.test(name);
}

/** Day numbers are shifted by this to be positive in sort keys (year 1 is day -719,162). */
const DAY_OFFSET = 720_000;
/** Rows per day in a sort key: more than any export has rows (`MAX_EXPORT_ROWS`). */
const ROW_SPAN = 2 ** 22;
if (ROW_SPAN <= MAX_EXPORT_ROWS) throw new Error('ROW_SPAN must exceed MAX_EXPORT_ROWS');

interface TSide {
  file: ParsedExport;
  /** Column index by lower-cased header (the date column left out). */
  index: Map<string, number>;
  /** Rows with a parsed day, by ascending day; the first row of each day only. */
  byDay: Int32Array;
  /** Rows without a parsed day by lower-cased date text, first row of each, in file order. */
  byText: Map<string, number>;
}

/** The rows of `file` with a parsed day, ordered by (day, row). */
function rowsByDay(file: ParsedExport): Int32Array {
  let count = 0;
  let sorted = true;
  let previous = -Infinity;
  for (let row = 0; row < file.rowCount; row++) {
    const day = file.dayNumber(row);
    if (day === NO_DAY) continue;
    count++;
    if (day < previous) sorted = false;
    previous = day;
  }
  const rows = new Int32Array(count);
  let k = 0;
  for (let row = 0; row < file.rowCount; row++) {
    if (file.dayNumber(row) !== NO_DAY) rows[k++] = row;
  }
  if (!sorted) {
    // One numeric sort of (day, row) keys: a stable order by day without a comparator.
    const keys = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      keys[i] = (file.dayNumber(rows[i]!) + DAY_OFFSET) * ROW_SPAN + rows[i]!;
    }
    keys.sort();
    for (let i = 0; i < count; i++) rows[i] = keys[i]! % ROW_SPAN;
  }
  return rows;
}

function side(file: ParsedExport, warnings: string[]): TSide {
  const index = new Map<string, number>();
  file.headers.forEach((h, i) => {
    if (i !== file.dateIndex) index.set(h.toLowerCase(), i);
  });
  const ordered = rowsByDay(file);
  const byDay = new Int32Array(ordered.length);
  let kept = 0;
  let duplicates = 0;
  for (let i = 0; i < ordered.length; i++) {
    const row = ordered[i]!;
    if (kept > 0 && file.dayNumber(byDay[kept - 1]!) === file.dayNumber(row)) duplicates++;
    else byDay[kept++] = row;
  }
  const byText = new Map<string, number>();
  for (let row = 0; row < file.rowCount; row++) {
    if (file.dayNumber(row) !== NO_DAY) continue;
    const key = file.date(row).toLowerCase();
    if (byText.has(key)) duplicates++;
    else byText.set(key, row);
  }
  if (duplicates > 0) {
    warnings.push(
      `${file.field}: ${duplicates} rows repeat an earlier date; the first row of each date was kept`,
    );
  }
  return { file, index, byDay: byDay.subarray(0, kept), byText };
}

function fileInfo(file: ParsedExport): TMergedFileInfo {
  return {
    field: file.field,
    rows: file.rowCount,
    skippedRows: file.skippedRows,
    headerLine: file.headerLine,
    encoding: file.encoding,
    delimiter: file.delimiter,
    appName: file.preamble.appName,
    territory: file.preamble.territory,
    dateRange: file.preamble.dateRange,
    view: file.preamble.view,
  };
}

/** Where the values of one merged column come from. */
interface TColumnPlan {
  convIndex: number;
  redlIndex: number;
  preferRedl: boolean;
}

/**
 * The merged dataset (docs/product.md#merging-exports), held compactly (docs/BENCHMARKS.md): each
 * merged row is a pair of row indexes into the two parsed exports, and its cells are read from them
 * when asked for ({@link rowCells}), so no object or array per row is kept.
 */
export class MergedDataset {
  /** Number of merged rows (one per date). */
  readonly rowCount: number;

  constructor(
    /** Date column first, then the conversion file's columns, the redownloads file's new ones, 'Territory'. */
    readonly headers: string[],
    readonly dateColumn: string,
    readonly appName: string | null,
    readonly territory: string | null,
    /** First and last parsed day; null when no date parses. */
    readonly dateSpan: { start: string; end: string } | null,
    readonly files: TMergedFileInfo[],
    /** Things worth logging (duplicate dates). */
    readonly warnings: string[],
    /** True when a file was given in the other file's slot and used the right way round. */
    readonly swapped: boolean,
    /**
     * Sentences for the user about what the merge did: the swap, then each file's lines left
     * out as unreadable (see `ParsedExport.notices`).
     */
    readonly notices: string[],
    private readonly conv: ParsedExport | null,
    private readonly redl: ParsedExport | null,
    /** Row of the conversion file of each merged row, -1 when it has none. */
    private readonly convRows: Int32Array,
    /** Row of the redownloads file of each merged row, -1 when it has none. */
    private readonly redlRows: Int32Array,
    private readonly plan: readonly TColumnPlan[],
    /** Whether the last header is the added 'Territory' column (holding `territory`). */
    private readonly addTerritory: boolean,
  ) {
    this.rowCount = convRows.length;
  }

  /** Day number of merged row `row`, or `NO_DAY` for a row whose date does not parse. */
  dayNumber(row: number): number {
    const c = this.convRows[row]!;
    return c >= 0 ? this.conv!.dayNumber(c) : this.redl!.dayNumber(this.redlRows[row]!);
  }

  /**
   * The cells of merged row `row`, aligned with `headers` (written into `into` when given):
   * numbers as numbers, missing values null. The date text is the conversion file's when it has the date. A column present in
   * both files keeps the conversion file's value, except a Redownloads column, which keeps the
   * redownloads file's; the other file fills values the preferred one lacks.
   */
  rowCells(row: number, into?: TChartCell[]): TChartCell[] {
    const c = this.convRows[row]!;
    const r = this.redlRows[row]!;
    const conv = c >= 0 ? this.conv : null;
    const redl = r >= 0 ? this.redl : null;
    const cells = into ?? new Array<TChartCell>(this.headers.length);
    cells[0] = conv ? conv.date(c) : redl!.date(r);
    for (let k = 0; k < this.plan.length; k++) {
      const col = this.plan[k]!;
      const fromConv = conv && col.convIndex >= 0 ? conv.cell(c, col.convIndex) : null;
      const fromRedl = redl && col.redlIndex >= 0 ? redl.cell(r, col.redlIndex) : null;
      cells[k + 1] = col.preferRedl ? (fromRedl ?? fromConv) : (fromConv ?? fromRedl);
    }
    if (this.addTerritory) cells[this.headers.length - 1] = this.territory;
    return cells;
  }

  /** Merged row `row` as an object keyed by header (the upload answer's preview). */
  rowObject(row: number): TChartDataRow {
    const cells = this.rowCells(row);
    const out: TChartDataRow = {};
    this.headers.forEach((h, i) => (out[h] = cells[i]!));
    return out;
  }

  /** Every merged row as an object (allocates one per row: for tests and small datasets). */
  toRowObjects(): TChartDataRow[] {
    return Array.from({ length: this.rowCount }, (_, row) => this.rowObject(row));
  }

  /** Every merged row's cells, in order (see {@link rowCells}). */
  *rowArrays(): Generator<TChartCell[], void, undefined> {
    for (let row = 0; row < this.rowCount; row++) yield this.rowCells(row);
  }

  /**
   * The rows in slices of `size` for `storeDataset` of @aso/db, each with the first and last
   * parsed day among its rows; `beforeEach` is awaited before each slice is built (the merge
   * worker yields to the event loop and keeps its job lock there).
   *
   * The row arrays are reused from one slice to the next (600,000 rows would otherwise be as
   * many short-lived arrays, and the garbage collector's work grows the worker's memory): a
   * consumer reads each slice before asking for the next one and keeps none of its arrays, as
   * `storeDataset` does (it serializes each slice at once).
   */
  async *chunks(
    size: number,
    beforeEach?: () => Promise<void>,
  ): AsyncGenerator<TDatasetRowsChunk, void, undefined> {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('size must be >= 1');
    const pool: TChartCell[][] = [];
    for (let start = 0; start < this.rowCount; start += size) {
      await beforeEach?.();
      const end = Math.min(this.rowCount, start + size);
      const rows = pool.slice(0, end - start);
      let first = Infinity;
      let last = -Infinity;
      for (let row = start; row < end; row++) {
        const at = row - start;
        if (at === pool.length) {
          pool.push(new Array<TChartCell>(this.headers.length));
          rows.push(pool[at]!);
        }
        this.rowCells(row, rows[at]);
        const day = this.dayNumber(row);
        if (day === NO_DAY) continue;
        if (day < first) first = day;
        if (day > last) last = day;
      }
      yield {
        rows,
        firstDay: first === Infinity ? null : isoFromDayNumber(first),
        lastDay: last === -Infinity ? null : isoFromDayNumber(last),
      };
    }
  }
}

/**
 * Merges the conversion export and the redownloads export (docs/product.md#merging-exports); either
 * may be absent (one file alone works).
 *
 * - Roles: each file is used as what its columns say it is, whatever slot it came in (see
 *   `assignRoles`); `swapped` and `notices` say when a file was moved; `notices` also carry
 *   each file's own (lines left out as unreadable CSV).
 * - Cross-check: two files must describe the same app, territory and date range (see
 *   `assertSameListing`).
 * - Rows are joined on the parsed day (rows whose date does not parse join on their text),
 *   giving the union of dates, sorted ascending; rows with unparseable dates come last in file
 *   order. The date text kept is the conversion file's when it has the date.
 * - Columns: the date column (named as in the conversion file), the conversion file's columns,
 *   then the redownloads file's columns not already present (names compared
 *   case-insensitively), then 'Territory' unless a file already has it. A column present in
 *   both keeps the conversion file's values, except a Redownloads column, which keeps the
 *   redownloads file's; the other file fills values the preferred one lacks.
 * - appName and territory come from the conversion file's preamble, else the redownloads
 *   file's, else (territory only) a 'Territory' data column with one value; null when none.
 *
 * @throws CsvExportError 'same_kind' or 'mismatch' when the two files do not go together.
 * @throws TypeError when neither file is given (callers check the upload first).
 */
export function mergeExports(inputs: {
  conversion?: ParsedExport | null;
  redownloads?: ParsedExport | null;
}): MergedDataset {
  const roles = assignRoles(inputs);
  if (roles.conversion && roles.redownloads) assertSameListing(roles.conversion, roles.redownloads);
  const warnings: string[] = [];
  const conv = roles.conversion ? side(roles.conversion, warnings) : null;
  const redl = roles.redownloads ? side(roles.redownloads, warnings) : null;
  const primary = conv ?? redl;
  if (!primary) {
    throw new TypeError('mergeExports needs the conversion export, the redownloads export or both');
  }
  const dateColumn = primary.file.headers[primary.file.dateIndex]!;

  const headers: string[] = [dateColumn];
  const lowerSeen = new Set([dateColumn.toLowerCase()]);
  for (const s of [conv, redl]) {
    if (!s) continue;
    s.file.headers.forEach((h, i) => {
      if (i === s.file.dateIndex || lowerSeen.has(h.toLowerCase())) return;
      lowerSeen.add(h.toLowerCase());
      headers.push(h);
    });
  }
  const addTerritory = !lowerSeen.has(TERRITORY_COLUMN.toLowerCase());
  if (addTerritory) headers.push(TERRITORY_COLUMN);

  const appName = conv?.file.preamble.appName || redl?.file.preamble.appName || null;
  const territory = (conv && territoryOf(conv.file)) || (redl && territoryOf(redl.file)) || null;

  // Join: a merge of the two day-ordered row lists, then the rows without a parsed day.
  const convDays = conv?.byDay ?? new Int32Array(0);
  const redlDays = redl?.byDay ?? new Int32Array(0);
  const convText = conv?.byText ?? new Map<string, number>();
  const redlText = redl?.byText ?? new Map<string, number>();
  const capacity = convDays.length + redlDays.length + convText.size + redlText.size;
  const convRows = new Int32Array(capacity);
  const redlRows = new Int32Array(capacity);
  let n = 0;
  let a = 0;
  let b = 0;
  while (a < convDays.length || b < redlDays.length) {
    const dc = a < convDays.length ? conv!.file.dayNumber(convDays[a]!) : Infinity;
    const dr = b < redlDays.length ? redl!.file.dayNumber(redlDays[b]!) : Infinity;
    convRows[n] = dc <= dr ? convDays[a++]! : -1;
    redlRows[n] = dr <= dc ? redlDays[b++]! : -1;
    n++;
  }
  const parsedRows = n;
  for (const [key, row] of convText) {
    convRows[n] = row;
    redlRows[n] = redlText.get(key) ?? -1;
    n++;
  }
  for (const [key, row] of redlText) {
    if (convText.has(key)) continue;
    convRows[n] = -1;
    redlRows[n] = row;
    n++;
  }

  const plan = headers.slice(1, addTerritory ? -1 : undefined).map((header): TColumnPlan => {
    const lower = header.toLowerCase();
    return {
      convIndex: conv?.index.get(lower) ?? -1,
      redlIndex: redl?.index.get(lower) ?? -1,
      preferRedl: isRedownloadsColumn(header),
    };
  });

  const dayOfMerged = (row: number) =>
    convRows[row]! >= 0
      ? conv!.file.dayNumber(convRows[row]!)
      : redl!.file.dayNumber(redlRows[row]!);
  return new MergedDataset(
    headers,
    dateColumn,
    appName,
    territory,
    parsedRows === 0
      ? null
      : {
          start: isoFromDayNumber(dayOfMerged(0)),
          end: isoFromDayNumber(dayOfMerged(parsedRows - 1)),
        },
    [conv, redl].filter((s): s is TSide => s !== null).map((s) => fileInfo(s.file)),
    warnings,
    roles.swapped,
    [...roles.notices, ...(conv?.file.notices ?? []), ...(redl?.file.notices ?? [])],
    conv?.file ?? null,
    redl?.file ?? null,
    convRows.subarray(0, n),
    redlRows.subarray(0, n),
    plan,
    addTerritory,
  );
}

/**
 * The `mergedData` of the upload answer (docs/product.md#entities: Upload result): headers, the
 * first 10 rows, the row count, the dataset's download id, app name and territory.
 */
export function toMergedData(merged: MergedDataset, downloadId: string): TMergedData {
  const preview: TChartDataRow[] = [];
  for (let row = 0; row < Math.min(PREVIEW_ROWS, merged.rowCount); row++) {
    preview.push(merged.rowObject(row));
  }
  return {
    headers: merged.headers,
    preview,
    totalRows: merged.rowCount,
    downloadId,
    appName: merged.appName,
    territory: merged.territory,
    swapped: merged.swapped,
    notices: merged.notices,
  };
}
