import type { TChartCell, TChartDataRow, TMergedData, TUploadField } from '@aso/contracts';
import type { TParsedExport } from './export.parser';
import type { TExportDelimiter, TExportEncoding } from './text-decoder.stream';

/** Name of the column the merge adds (issue 6 point 3). */
export const TERRITORY_COLUMN = 'Territory';
/** Rows in an upload answer's preview (spec section 3: Upload result). */
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

/** The merged dataset (issue 6 point 3). */
export interface TMergedDataset {
  /** Date column first, then the conversion file's columns, the redownloads file's new ones, 'Territory'. */
  headers: string[];
  /** One row per date, ascending; numbers as numbers, missing values as null. */
  rows: TChartDataRow[];
  dateColumn: string;
  appName: string | null;
  territory: string | null;
  /** First and last parsed day; null when no date parses. */
  dateSpan: { start: string; end: string } | null;
  files: TMergedFileInfo[];
  /** Things worth logging (conflicting preambles, duplicate dates). */
  warnings: string[];
}

/** A column 'Redownloads'/'Re-Downloads' takes its values from the redownloads file. */
export function isRedownloadsColumn(name: string): boolean {
  return /re-?downloads/i.test(name);
}

interface TSide {
  file: TParsedExport;
  /** Column index by lower-cased header. */
  index: Map<string, number>;
  /** Row by join key. */
  byKey: Map<string, TParsedExport['rows'][number]>;
}

function joinKey(row: { date: string; day: string | null }): string {
  return row.day ?? `text:${row.date.toLowerCase()}`;
}

function side(file: TParsedExport, warnings: string[]): TSide {
  const index = new Map<string, number>();
  file.headers.forEach((h, i) => {
    if (i !== file.dateIndex) index.set(h.toLowerCase(), i);
  });
  const byKey = new Map<string, TParsedExport['rows'][number]>();
  let duplicates = 0;
  for (const row of file.rows) {
    const key = joinKey(row);
    if (byKey.has(key)) duplicates++;
    else byKey.set(key, row);
  }
  if (duplicates > 0) {
    warnings.push(
      `${file.field}: ${duplicates} rows repeat an earlier date; the first row of each date was kept`,
    );
  }
  return { file, index, byKey };
}

function fileInfo(file: TParsedExport): TMergedFileInfo {
  return {
    field: file.field,
    rows: file.rows.length,
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

/** The single distinct non-empty value of a 'Territory' data column, if there is exactly one. */
function territoryFromData(file: TParsedExport): string | null {
  const i = file.headers.findIndex((h) => h.toLowerCase() === 'territory');
  if (i < 0) return null;
  const values = new Set(
    file.rows.map((r) => r.cells[i]).filter((v): v is string => typeof v === 'string' && v !== ''),
  );
  return values.size === 1 ? [...values][0]! : null;
}

function pick(
  a: string | null | undefined,
  b: string | null | undefined,
  what: string,
  warnings: string[],
): string | null {
  if (a && b && a !== b)
    warnings.push(`the files disagree on the ${what} ('${a}' and '${b}'); kept '${a}'`);
  return a || b || null;
}

/**
 * Merges the conversion export and the redownloads export (issue 6 point 3); either may be
 * absent (one file alone works).
 *
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
 * @throws TypeError when neither file is given (callers check the upload first).
 */
export function mergeExports(inputs: {
  conversion?: TParsedExport | null;
  redownloads?: TParsedExport | null;
}): TMergedDataset {
  const warnings: string[] = [];
  const conv = inputs.conversion ? side(inputs.conversion, warnings) : null;
  const redl = inputs.redownloads ? side(inputs.redownloads, warnings) : null;
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

  const appName = pick(
    conv?.file.preamble.appName,
    redl?.file.preamble.appName,
    'app name',
    warnings,
  );
  const territory =
    pick(conv?.file.preamble.territory, redl?.file.preamble.territory, 'territory', warnings) ??
    (conv ? territoryFromData(conv.file) : null) ??
    (redl ? territoryFromData(redl.file) : null);

  const keys: string[] = [];
  const seenKeys = new Set<string>();
  for (const s of [conv, redl]) {
    if (!s) continue;
    for (const key of s.byKey.keys()) {
      if (!seenKeys.has(key)) {
        seenKeys.add(key);
        keys.push(key);
      }
    }
  }
  const parsedKeys = keys.filter((k) => !k.startsWith('text:')).sort();
  const textKeys = keys.filter((k) => k.startsWith('text:'));

  // Resolve each column's source indexes once, not per row.
  const plan = headers
    .slice(1)
    .filter((h) => !(addTerritory && h === TERRITORY_COLUMN))
    .map((header) => {
      const lower = header.toLowerCase();
      const convIndex = conv?.index.get(lower);
      const redlIndex = redl?.index.get(lower);
      const preferRedl = isRedownloadsColumn(header);
      return {
        header,
        first: preferRedl ? ('redl' as const) : ('conv' as const),
        convIndex,
        redlIndex,
      };
    });
  const rows: TChartDataRow[] = [...parsedKeys, ...textKeys].map((key) => {
    const c = conv?.byKey.get(key);
    const r = redl?.byKey.get(key);
    const row: TChartDataRow = { [dateColumn]: (c ?? r)!.date };
    for (const col of plan) {
      const fromConv = c ? cellOf(c.cells, col.convIndex) : undefined;
      const fromRedl = r ? cellOf(r.cells, col.redlIndex) : undefined;
      row[col.header] =
        (col.first === 'redl' ? (fromRedl ?? fromConv) : (fromConv ?? fromRedl)) ?? null;
    }
    if (addTerritory) row[TERRITORY_COLUMN] = territory;
    return row;
  });

  return {
    headers,
    rows,
    dateColumn,
    appName,
    territory,
    dateSpan:
      parsedKeys.length === 0
        ? null
        : { start: parsedKeys[0]!, end: parsedKeys[parsedKeys.length - 1]! },
    files: [conv, redl].filter((s): s is TSide => s !== null).map((s) => fileInfo(s.file)),
    warnings,
  };
}

function cellOf(cells: readonly TChartCell[], index: number | undefined): TChartCell | undefined {
  if (index === undefined) return undefined;
  const value = cells[index];
  return value === null ? undefined : value;
}

/**
 * The `mergedData` of the upload answer (spec section 3: Upload result): headers, the first
 * 10 rows, the row count, the dataset's download id, app name and territory.
 */
export function toMergedData(merged: TMergedDataset, downloadId: string): TMergedData {
  return {
    headers: merged.headers,
    preview: merged.rows.slice(0, PREVIEW_ROWS),
    totalRows: merged.rows.length,
    downloadId,
    appName: merged.appName,
    territory: merged.territory,
  };
}
