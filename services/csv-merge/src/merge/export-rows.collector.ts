import type { TChartCell, TUploadField } from '@aso/contracts';
import { CellTable } from './cell.table';
import { ExportDates, NO_DAY } from './export-day.parser';
import { isDateHeaderCell } from './text-decoder.stream';
import { RECORDS_PER_ROW, tooManyRows } from './export-limits';

/** Date cells of summary rows that some exports append ('Total', 'Totals', 'Grand Total', 'Sum'). */
const SUMMARY_ROW = /^(?:grand\s+)?(?:total|totals|sum)$/i;

/** What a {@link ExportRowCollector} needs to know of its file. */
export interface TRowCollectorOptions {
  field: TUploadField;
  /** Most data rows kept; more than `RECORDS_PER_ROW` times as many records is refused too. */
  maxRows: number;
  /** Cells of the header row. */
  width: number;
  /** Index of the header row's Date cell. */
  dateColumn: number;
  /** Reads one cell (see `createCellReader`). */
  readCell: (raw: string) => TChartCell;
}

/**
 * The data rows of one export, built record by record as its parser gives them
 * (docs/product.md#merging-exports): each record is read into the compact table and dates at
 * once, so no record outlives its turn (a file's records held until the end were promoted out
 * of V8's young generation and cost a full collection every few merges: docs/BENCHMARKS.md).
 *
 * Rows with an empty date cell, repeated header rows, summary rows ('Total', 'Grand Total',
 * 'Sum') and rows whose date does not parse and that hold no number (footers) are skipped and
 * counted in `skippedRows`.
 */
export class ExportRowCollector {
  readonly table: CellTable;
  readonly dates = new ExportDates();
  /** Columns holding a value in a kept row (1), by cell index of the header row. */
  readonly filled: Uint8Array;
  /** Records left out (see the class). */
  skippedRows = 0;
  /** Records given to {@link add} so far, kept or skipped. */
  records = 0;
  readonly #options: TRowCollectorOptions;
  readonly #maxRecords: number;
  readonly #textColumns: number[] = [];

  constructor(options: TRowCollectorOptions) {
    this.#options = options;
    this.#maxRecords = options.maxRows * RECORDS_PER_ROW;
    this.table = new CellTable(options.width);
    this.filled = new Uint8Array(options.width);
  }

  /**
   * Reads one record (its cells as split by the CSV parser).
   *
   * @throws CsvExportError 'too_many_rows' past `maxRows` kept rows or `RECORDS_PER_ROW` times
   *   as many records.
   */
  add(record: readonly string[]): void {
    const { field, maxRows, width, dateColumn, readCell } = this.#options;
    if (++this.records > this.#maxRecords) throw tooManyRows(field, maxRows);
    const date = (record[dateColumn] ?? '').trim();
    if (date === '') {
      this.skippedRows++;
      return;
    }
    const dates = this.dates;
    const day = dates.push(date);
    // A repeated header or a summary row ('Total') has no date that parses.
    if (day === NO_DAY && (isDateHeaderCell(date) || SUMMARY_ROW.test(date))) {
      dates.pop();
      this.skippedRows++;
      return;
    }
    if (dates.length > maxRows) throw tooManyRows(field, maxRows);
    const table = this.table;
    const row = table.addRow();
    const textColumns = this.#textColumns;
    let hasNumber = false;
    textColumns.length = 0;
    const cells = Math.min(record.length, width);
    for (let col = 0; col < cells; col++) {
      if (col === dateColumn) continue;
      const value = readCell(record[col]!);
      if (value === null) continue;
      if (typeof value === 'number') {
        hasNumber = true;
        this.filled[col] = 1;
      } else textColumns.push(col);
      table.set(row, col, value);
    }
    if (day === NO_DAY && !hasNumber) {
      table.removeLastRow();
      dates.pop();
      this.skippedRows++;
      return;
    }
    for (const col of textColumns) this.filled[col] = 1;
  }
}
