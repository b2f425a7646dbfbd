import type { TUploadField } from '@aso/contracts';
import { CsvExportError } from './csv-export.error';
import { isoFromDayNumber, NO_DAY, parseExportDay } from './export-day.parser';
import type { ParsedExport } from './export-result';

/**
 * Checks of the two exports of one upload against each other, before they are merged: which
 * file is which (by its columns, whatever slot it was given in) and whether both describe the
 * same app, territory and date range. Merging a United States conversion export of one app
 * with a United Kingdom redownloads export of another would give a dashboard of mixed data.
 */

/** What an export holds, read from its columns (or its preamble's view name). */
export type TExportKind = 'conversion' | 'redownloads';

/** Columns only the conversion export has: impressions, first-time and total downloads. */
const CONVERSION_COLUMN = /impressions|first-time downloads|total downloads|page views|conversion/i;
/** Columns of the redownloads export ('Redownloads', 'Re-Downloads'). */
const REDOWNLOADS_COLUMN = /re-?downloads/i;

/** Human name of a slot, as the upload widgets label them. */
export const SLOT_LABEL: Record<TUploadField, string> = {
  conversionCSV: 'conversion data',
  redownloadsCSV: 'redownloads data',
};

/**
 * The kind of export `file` is: 'conversion' when its columns include impressions,
 * first-time or total downloads (the Conversion Rate view) and no redownloads; 'redownloads'
 * when they include redownloads and none of those; otherwise its preamble's view name
 * decides ('Redownloads' / 'Conversion Rate'); a file with both kinds of column is a
 * conversion export; null when nothing tells.
 */
export function exportKind(
  file: Pick<ParsedExport, 'headers' | 'dateIndex' | 'preamble'>,
): TExportKind | null {
  const columns = file.headers.filter((_, i) => i !== file.dateIndex);
  const redownloads = columns.some((h) => REDOWNLOADS_COLUMN.test(h));
  const conversion = columns.some((h) => !REDOWNLOADS_COLUMN.test(h) && CONVERSION_COLUMN.test(h));
  if (conversion !== redownloads) return conversion ? 'conversion' : 'redownloads';
  const view = file.preamble.view ?? '';
  if (REDOWNLOADS_COLUMN.test(view)) return 'redownloads';
  if (/conversion|impression/i.test(view)) return 'conversion';
  return conversion ? 'conversion' : null;
}

/** The exports in their roles, after {@link assignRoles}. */
export interface TAssignedExports {
  conversion: ParsedExport | null;
  redownloads: ParsedExport | null;
  /** True when a file was given in the other file's slot and is used the right way round. */
  swapped: boolean;
  /** Sentences for the user saying what was done (empty when nothing was moved). */
  notices: string[];
}

/**
 * Puts each export in its role by its columns ({@link exportKind}): two files given in each
 * other's slots are swapped, and one file alone given in the wrong slot is used in its own;
 * the answer's `notices` say so. A file whose kind cannot be told stays in its slot.
 *
 * @throws CsvExportError (reason 'same_kind') when both files are the same kind of export; the
 *   message starts with the slot that holds the wrong one and says which export belongs there.
 */
export function assignRoles(inputs: {
  conversion?: ParsedExport | null;
  redownloads?: ParsedExport | null;
}): TAssignedExports {
  const a = inputs.conversion ?? null;
  const b = inputs.redownloads ?? null;
  const kindA = a ? exportKind(a) : null;
  const kindB = b ? exportKind(b) : null;

  if (a && b && kindA !== null && kindA === kindB) {
    const wrong: TUploadField = kindA === 'conversion' ? 'redownloadsCSV' : 'conversionCSV';
    const expected =
      wrong === 'redownloadsCSV'
        ? 'the Redownloads export (by source type)'
        : 'the Conversion Rate export (impressions and first-time downloads)';
    throw new CsvExportError(
      wrong,
      'same_kind',
      `both files are ${kindA} exports; upload ${expected} as ${SLOT_LABEL[wrong]}`,
    );
  }

  const aBelongsInB = kindA === 'redownloads' && kindB !== 'redownloads';
  const bBelongsInA = kindB === 'conversion' && kindA !== 'conversion';
  if (a && b && (aBelongsInB || bBelongsInA)) {
    return {
      conversion: b,
      redownloads: a,
      swapped: true,
      notices: [
        `The files were in each other's slots: the file given as ${SLOT_LABEL.conversionCSV} is the redownloads export and the file given as ${SLOT_LABEL.redownloadsCSV} is the conversion export. They were merged the right way round.`,
      ],
    };
  }
  if (a && !b && kindA === 'redownloads') {
    return {
      conversion: null,
      redownloads: a,
      swapped: true,
      notices: [
        `The file given as ${SLOT_LABEL.conversionCSV} is a redownloads export; it was used as the ${SLOT_LABEL.redownloadsCSV}.`,
      ],
    };
  }
  if (b && !a && kindB === 'conversion') {
    return {
      conversion: b,
      redownloads: null,
      swapped: true,
      notices: [
        `The file given as ${SLOT_LABEL.redownloadsCSV} is a conversion export; it was used as the ${SLOT_LABEL.conversionCSV}.`,
      ],
    };
  }
  return { conversion: a, redownloads: b, swapped: false, notices: [] };
}

/** Text compared case- and space-insensitively ('Calm Notes:  journal' = 'calm notes: Journal'). */
function comparable(text: string): string {
  return text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DATE_TOKEN =
  /([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})|\b(\d{1,2}\/\d{1,2}\/\d{2,4})\b|\b(\d{4}-\d{1,2}-\d{1,2})\b/gi;

/** Day number of one date token of a preamble's date range, or NO_DAY. */
function tokenDay(match: RegExpExecArray): number {
  if (match[1] !== undefined) {
    const month = MONTHS.indexOf(match[1].toLowerCase()) + 1;
    if (month === 0) return NO_DAY;
    return parseExportDay(
      `${match[3]}-${month.toString().padStart(2, '0')}-${match[2]!.padStart(2, '0')}`,
    );
  }
  return parseExportDay(match[4] ?? match[5] ?? '');
}

/**
 * The first and last day of a preamble's date range ('Jun 1, 2025 - Aug 31, 2025',
 * '6/1/25 - 8/31/25', '2025-06-01 - 2025-08-31') as `YYYY-MM-DD`, or null when it does not
 * hold two dates that parse.
 */
export function parseDateRangeText(text: string): { start: string; end: string } | null {
  const days: number[] = [];
  for (const match of text.matchAll(DATE_TOKEN)) {
    const day = tokenDay(match);
    if (day === NO_DAY) return null;
    days.push(day);
  }
  if (days.length !== 2) return null;
  const [first, second] = days as [number, number];
  return {
    start: isoFromDayNumber(Math.min(first, second)),
    end: isoFromDayNumber(Math.max(first, second)),
  };
}

/** First and last parsed day of a file's rows, or null when none parses. */
function dataSpan(file: ParsedExport): { start: string; end: string } | null {
  let first = Infinity;
  let last = -Infinity;
  for (let row = 0; row < file.rowCount; row++) {
    const day = file.dayNumber(row);
    if (day === NO_DAY) continue;
    if (day < first) first = day;
    if (day > last) last = day;
  }
  return first === Infinity
    ? null
    : { start: isoFromDayNumber(first), end: isoFromDayNumber(last) };
}

/** The single distinct non-empty value of a 'Territory' data column, if there is exactly one. */
export function territoryFromData(file: ParsedExport): string | null {
  const col = file.headers.findIndex((h) => h.toLowerCase() === 'territory');
  if (col < 0) return null;
  let found: string | null = null;
  for (let row = 0; row < file.rowCount; row++) {
    const value = file.cell(row, col);
    if (typeof value !== 'string' || value === '' || value === found) continue;
    if (found !== null) return null;
    found = value;
  }
  return found;
}

/** The territory an export is for: its preamble's, else its single 'Territory' column value. */
export function territoryOf(file: ParsedExport): string | null {
  return file.preamble.territory ?? territoryFromData(file);
}

/** How one file's date range is known for the comparison. */
interface TRangeSeen {
  /** As the preamble writes it, or 'YYYY-MM-DD to YYYY-MM-DD' from the rows. */
  label: string;
  days: { start: string; end: string };
}

/**
 * The file's date range: its preamble's when that parses, else the days of its rows; null
 * when neither is known, or when lines of the file were left out as unreadable (its notices):
 * its rows then miss days, and a 'date range' refusal would hide the broken line the notice
 * names.
 */
function rangeSeen(file: ParsedExport): TRangeSeen | null {
  const stated = file.preamble.dateRange;
  const days = stated ? parseDateRangeText(stated) : null;
  if (stated && days) return { label: stated, days };
  if (file.notices.length > 0) return null;
  const span = dataSpan(file);
  return span ? { label: `${span.start} to ${span.end}`, days: span } : null;
}

/**
 * Refuses two exports that do not describe the same listing (called with the files in their
 * roles): their app names, territories (preamble, else a one-value 'Territory' column) and
 * date ranges must agree. App names and territories are compared ignoring case and spacing; a
 * value one file does not state is not compared. Date ranges are compared as days: each
 * file's preamble range when it states one that parses, else the first and last day of its
 * rows (not compared for a file with lines left out as unreadable).
 *
 * @throws CsvExportError (reason 'mismatch') naming every value that differs, with the slot
 *   each came from, e.g. "redownloadsCSV: the two exports do not match: app name 'Habit
 *   Tracker Pro' in conversionCSV, 'Calm Notes' in redownloadsCSV; ...". The message starts
 *   with the redownloads export's slot (the gateway answers such messages as a 400).
 */
export function assertSameListing(conversion: ParsedExport, redownloads: ParsedExport): void {
  const differences: string[] = [];
  const compare = (what: string, x: string | null, y: string | null) => {
    if (x && y && comparable(x) !== comparable(y)) {
      differences.push(`${what} '${x}' in ${conversion.field}, '${y}' in ${redownloads.field}`);
    }
  };
  compare('app name', conversion.preamble.appName, redownloads.preamble.appName);
  compare('territory', territoryOf(conversion), territoryOf(redownloads));

  const x = rangeSeen(conversion);
  const y = rangeSeen(redownloads);
  if (x && y) {
    if (x.days.start !== y.days.start || x.days.end !== y.days.end) {
      differences.push(
        `date range '${x.label}' in ${conversion.field}, '${y.label}' in ${redownloads.field}`,
      );
    }
  }
  if (differences.length === 0) return;
  throw new CsvExportError(
    redownloads.field,
    'mismatch',
    `the two exports do not match: ${differences.join('; ')}. Export both files for the same app, territory and date range.`,
  );
}
