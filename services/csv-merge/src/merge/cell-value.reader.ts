import { parseCellValue } from '@aso/analytics';
import type { TChartCell } from '@aso/contracts';
import type { TExportDelimiter } from './text-decoder.stream';

/**
 * Semicolon-delimited files come from spreadsheets in locales that write decimal commas
 * ('1.234,5'); their numbers are rewritten to '1234.5' before reading. Other text is kept.
 */
export function decimalCommaToPoint(raw: string): string {
  const text = raw.trim();
  if (/^[+-]?\d{1,3}(?:\.\d{3})+(?:,\d+)?\s*%?$/.test(text)) {
    return text.replace(/\./g, '').replace(',', '.');
  }
  if (/^[+-]?\d+,\d+\s*%?$/.test(text)) return text.replace(',', '.');
  return raw;
}

/** Longest cell read by the fast path: 15 digits are always an exact double. */
const FAST_MAX_LENGTH = 15;

/**
 * The reader of one export cell for a file with `delimiter` (docs/product.md#merging-exports):
 * `parseCellValue` of @aso/analytics ('1,234' -> 1234, '12.5%' -> 12.5, '-' or empty -> null, other
 * text kept), after {@link decimalCommaToPoint} in ';'-delimited files. Whole numbers written with
 * digits and thousands commas only, most cells of an export, are read by a fast path that gives the
 * same value without regular expressions (`cell-value.reader.test.ts` compares the two); everything
 * else goes to `parseCellValue`.
 */
export function createCellReader(delimiter: TExportDelimiter): (raw: string) => TChartCell {
  // In ';' files a comma is a decimal comma, never a thousands separator.
  const commaGroups = delimiter !== ';';
  const slow =
    delimiter === ';' ? (raw: string) => parseCellValue(decimalCommaToPoint(raw)) : parseCellValue;
  return (raw) => {
    const length = raw.length;
    if (length === 0) return null;
    if (length <= FAST_MAX_LENGTH) {
      let value = 0;
      let digits = 0;
      let i = 0;
      for (; i < length; i++) {
        const code = raw.charCodeAt(i);
        if (code >= 48 && code <= 57) {
          value = value * 10 + (code - 48);
          digits++;
        } else if (code !== 44 || !commaGroups || digits === 0) break;
      }
      if (i === length && digits > 0) return value;
    }
    return slow(raw);
  };
}
