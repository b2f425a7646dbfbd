import type { TChartCell, TUploadField } from '@aso/contracts';
import { CellTable, type TCellTableData } from './cell.table';
import { ExportDates, isoFromDayNumber, NO_DAY, type TExportDatesData } from './export-day.parser';
import type { TPreamble } from './preamble.parser';
import type { TExportDelimiter, TExportEncoding } from './text-decoder.stream';

/** One data row of an export, as an object (see {@link ParsedExport.toRows}). */
export interface TExportRow {
  /** The date cell as written, trimmed (e.g. '7/20/25'). */
  date: string;
  /** The parsed day `YYYY-MM-DD`, or null when the date does not parse. */
  day: string | null;
  /** One value per header (the date column's value is the raw date text). */
  cells: TChartCell[];
}

/** A {@link ParsedExport} as plain data for `postMessage` (see `ParsedExport.toData`). */
export interface TParsedExportData {
  field: TUploadField;
  headers: string[];
  dateIndex: number;
  preamble: TPreamble;
  headerLine: number;
  encoding: TExportEncoding;
  delimiter: TExportDelimiter;
  skippedRows: number;
  notices: string[];
  table: TCellTableData;
  columns: number[];
  dates: TExportDatesData;
}

/**
 * A parsed App Store Connect export. The rows are held compactly (a {@link CellTable}, the
 * date texts and day numbers), never as an object per row; read them by index.
 */
export class ParsedExport {
  constructor(
    /** The multipart field of the file. */
    readonly field: TUploadField,
    /** Column names, cleaned and unique; includes the date column. */
    readonly headers: string[],
    /** Index of the date column in `headers`. */
    readonly dateIndex: number,
    readonly preamble: TPreamble,
    /** 1-based line number of the header row. */
    readonly headerLine: number,
    readonly encoding: TExportEncoding,
    readonly delimiter: TExportDelimiter,
    /** Rows dropped: no date, a repeated header, or a footer line without numbers. */
    readonly skippedRows: number,
    /**
     * Sentences for the user about lines that could not be read and were left out, each
     * naming its lines (docs/product.md#merging-exports); empty for a clean file.
     */
    readonly notices: string[],
    private readonly table: CellTable,
    /** Column of the table of each header. */
    private readonly columns: readonly number[],
    private readonly dates: ExportDates,
  ) {}

  /**
   * The export as plain data and the ArrayBuffers to transfer with it, so a worker thread can
   * hand it over without copying its rows (this object is unusable after the transfer).
   */
  toData(): { data: TParsedExportData; buffers: ArrayBuffer[] } {
    const table = this.table.toData();
    const dates = this.dates.toData();
    return {
      data: {
        field: this.field,
        headers: this.headers,
        dateIndex: this.dateIndex,
        preamble: this.preamble,
        headerLine: this.headerLine,
        encoding: this.encoding,
        delimiter: this.delimiter,
        skippedRows: this.skippedRows,
        notices: this.notices,
        table: table.data,
        columns: [...this.columns],
        dates: dates.data,
      },
      buffers: [...table.buffers, ...dates.buffers],
    };
  }

  /** The export {@link ParsedExport.toData} described (its arrays are used, not copied). */
  static fromData(data: TParsedExportData): ParsedExport {
    return new ParsedExport(
      data.field,
      data.headers,
      data.dateIndex,
      data.preamble,
      data.headerLine,
      data.encoding,
      data.delimiter,
      data.skippedRows,
      data.notices,
      CellTable.fromData(data.table),
      data.columns,
      ExportDates.fromData(data.dates),
    );
  }

  /** Number of data rows. */
  get rowCount(): number {
    return this.dates.length;
  }

  /** The date cell of row `row` as written, trimmed. */
  date(row: number): string {
    return this.dates.text(row);
  }

  /** Day number (days since 1970-01-01) of row `row`'s date, or `NO_DAY` when it does not parse. */
  dayNumber(row: number): number {
    return this.dates.dayNumber(row);
  }

  /** Cell `col` (an index of `headers`) of row `row`; the date column gives the date text. */
  cell(row: number, col: number): TChartCell {
    if (col === this.dateIndex) return this.dates.text(row);
    return this.table.get(row, this.columns[col]!);
  }

  /** Every row as an object (allocates one per row: for tests and small files). */
  toRows(): TExportRow[] {
    return Array.from({ length: this.rowCount }, (_, row) => {
      const day = this.dayNumber(row);
      return {
        date: this.date(row),
        day: day === NO_DAY ? null : isoFromDayNumber(day),
        cells: this.headers.map((_, col) => this.cell(row, col)),
      };
    });
  }
}

/** A parsed export (see {@link ParsedExport}). */
export type TParsedExport = ParsedExport;
