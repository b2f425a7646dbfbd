import type { TChartCell } from '@aso/contracts';

/** Rows per block: blocks are allocated as rows come, so no block is copied to grow. */
const BLOCK_SHIFT = 13;
const BLOCK_ROWS = 1 << BLOCK_SHIFT;
const BLOCK_MASK = BLOCK_ROWS - 1;
/** Marks "no number here" in an Int32 block (the cell is missing, or text). */
const NO_INT = -2_147_483_648;
/** Distinct texts shared between cells (a Territory column repeats one value on every row). */
const MAX_INTERNED = 10_000;

/**
 * `text` as a string of its own. V8 keeps a slice of 13 or more characters as a view of the
 * string it was cut from; a cell kept from a 64 KB piece of the file would keep that piece.
 */
export function ownString(text: string): string {
  return text.length < 13 ? text : (text + ' ').slice(0, -1);
}

/** One column: 4 bytes per row while every number is a 32-bit integer, then 8. */
interface TColumn {
  blocks: (Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>)[];
  float: boolean;
}

/**
 * A {@link CellTable} as plain data for `postMessage` (a worker thread hands a parsed export
 * to the merge this way): `buffers` are the blocks' memory, to be transferred, not copied.
 */
export interface TCellTableData {
  width: number;
  rows: number;
  columns: TColumn[];
  /** Text cells as [row * width + col, text]. */
  texts: [number, string][];
}

/**
 * The cells of a parsed export, compactly (a 20 MB export is 600,000 rows), column
 * by column in blocks of 8,192 rows: a column holds its numbers in `Int32Array` blocks (4
 * bytes a cell; export counts are whole numbers) until a value that is not a 32-bit integer
 * comes, then in `Float64Array` blocks (NaN for "no number"); a text cell is kept in a map by
 * cell position (exports hold few, and repeated texts are shared); a missing value is "no
 * number" with no text. `parseCellValue` never yields NaN, so NaN is free to mean "no number".
 */
export class CellTable {
  private readonly columns: TColumn[];
  private readonly texts = new Map<number, string>();
  private readonly interned = new Map<string, string>();
  private rows = 0;

  /** @param width - cells per row (>= 1). */
  constructor(readonly width: number) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError('width must be >= 1');
    this.columns = Array.from({ length: width }, () => ({ blocks: [], float: false }));
  }

  /** Rows added so far. */
  get length(): number {
    return this.rows;
  }

  /** Appends a row whose cells are all missing (null); returns its index. */
  addRow(): number {
    const row = this.rows++;
    const block = row >>> BLOCK_SHIFT;
    if ((row & BLOCK_MASK) === 0) {
      for (const column of this.columns) {
        if (column.blocks.length > block) continue;
        column.blocks.push(
          column.float
            ? new Float64Array(BLOCK_ROWS).fill(Number.NaN)
            : new Int32Array(BLOCK_ROWS).fill(NO_INT),
        );
      }
    }
    return row;
  }

  /** Removes the last row (its cells become missing again). */
  removeLastRow(): void {
    if (this.rows === 0) return;
    const row = this.rows - 1;
    for (let col = 0; col < this.width; col++) {
      const column = this.columns[col]!;
      column.blocks[row >>> BLOCK_SHIFT]![row & BLOCK_MASK] = column.float ? Number.NaN : NO_INT;
      this.texts.delete(row * this.width + col);
    }
    this.rows = row;
  }

  /** Sets cell (`row`, `col`) of an added row; null leaves it missing. */
  set(row: number, col: number, value: TChartCell): void {
    if (typeof value === 'number') {
      const column = this.columns[col]!;
      if (!column.float && ((value | 0) !== value || value === NO_INT)) toFloat(column);
      column.blocks[row >>> BLOCK_SHIFT]![row & BLOCK_MASK] = value;
    } else if (value !== null) {
      let text = this.interned.get(value);
      if (text === undefined) {
        text = ownString(value);
        if (this.interned.size < MAX_INTERNED) this.interned.set(text, text);
      }
      this.texts.set(row * this.width + col, text);
    }
  }

  /**
   * The table as plain data and the ArrayBuffers to transfer with it (after a transfer this
   * table's blocks are detached: do not use it again).
   */
  toData(): { data: TCellTableData; buffers: ArrayBuffer[] } {
    const buffers: ArrayBuffer[] = [];
    for (const column of this.columns) {
      for (const block of column.blocks) buffers.push(block.buffer);
    }
    return {
      data: {
        width: this.width,
        rows: this.rows,
        columns: this.columns.map((c) => ({ float: c.float, blocks: c.blocks })),
        texts: [...this.texts],
      },
      buffers,
    };
  }

  /**
   * A table from {@link CellTable.toData}'s data (its blocks are used, not copied).
   *
   * @throws RangeError when the data does not describe a table (a column or block missing).
   */
  static fromData(data: TCellTableData): CellTable {
    const table = new CellTable(data.width);
    const blocksNeeded = Math.ceil(data.rows / BLOCK_ROWS);
    if (data.columns.length !== data.width) {
      throw new RangeError(`expected ${data.width} columns, got ${data.columns.length}`);
    }
    data.columns.forEach((column, col) => {
      if (column.blocks.length < blocksNeeded) {
        throw new RangeError(`column ${col} has ${column.blocks.length} blocks of ${blocksNeeded}`);
      }
      table.columns[col] = { float: column.float, blocks: column.blocks };
    });
    table.rows = data.rows;
    for (const [at, text] of data.texts) table.texts.set(at, text);
    return table;
  }

  /** Cell (`row`, `col`): a number, a text or null (missing). */
  get(row: number, col: number): TChartCell {
    const column = this.columns[col]!;
    const value = column.blocks[row >>> BLOCK_SHIFT]![row & BLOCK_MASK]!;
    if (column.float) {
      // NaN is the only value not equal to itself: the fastest "is a number here" test.
      if (value === value) return value;
    } else if (value !== NO_INT) return value;
    return this.texts.get(row * this.width + col) ?? null;
  }
}

/** Moves a column to Float64 blocks (once, when its first non-integer number comes). */
function toFloat(column: TColumn): void {
  column.blocks = column.blocks.map((block) => {
    const wide = new Float64Array(BLOCK_ROWS);
    for (let i = 0; i < BLOCK_ROWS; i++) wide[i] = block[i] === NO_INT ? Number.NaN : block[i]!;
    return wide;
  });
  column.float = true;
}
