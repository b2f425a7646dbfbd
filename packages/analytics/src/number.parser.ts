/** Marks of "no value" in an export cell (Apple writes '-' for a missing value). */
const MISSING_MARKS = new Set(['', '-', '\u2013', '\u2014']);
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Reads one export cell (docs/product.md#dashboard-computation).
 *
 * - '-' (also an en or em dash) or an empty cell: `null`, a missing value.
 * - A number, possibly with thousands separators (`"1,234"` -> 1234), a trailing percent sign
 *   (`"12.5%"` -> 12.5, percent units kept as written) or surrounding spaces: that number.
 * - Anything else (a date, a territory, 'N/A'): the trimmed text.
 */
export function parseCellValue(raw: string): number | string | null {
  const text = raw.trim();
  if (MISSING_MARKS.has(text)) return null;
  let numeric = text.replace(/[,\u00a0\u202f]/g, '');
  if (numeric.endsWith('%')) numeric = numeric.slice(0, -1).trimEnd();
  if (NUMERIC.test(numeric)) {
    const value = Number(numeric);
    if (Number.isFinite(value)) return value === 0 ? 0 : value;
  }
  return text;
}

/**
 * A metric value as a number for the dashboard math (docs/product.md#dashboard-computation:
 * "Non-numeric metric values count as 0"). Finite numbers pass through; strings are read as in
 * {@link parseCellValue} ('1,234' -> 1234, '12.5%' -> 12.5); '-', empty, null, undefined,
 * non-numeric text and non-finite numbers give 0.
 */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : 0;
  if (typeof value === 'string') {
    const parsed = parseCellValue(value);
    return typeof parsed === 'number' ? parsed : 0;
  }
  return 0;
}
