/**
 * Compact counts as the results show them (docs/product.md#limits-and-constants), shared by the web
 * app and the CLI.
 */

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/**
 * Abbreviates a count such as a rating count (docs/product.md#limits-and-constants: "K from 1,000,
 * M from 1,000,000") with `Intl.NumberFormat`'s compact notation, one decimal at most, trailing
 * `.0` dropped: `999` -> '999', `1000` -> '1K', `1540` -> '1.5K', `40585992` -> '40.6M'; a count
 * that rounds to 1,000K reads '1M' (and past a billion, 'B').
 *
 * Accepts a number or the audit's string (`'40585992'`, `'40,585,992'`); null reads '0'; text
 * that is not a count (e.g. already '1.2M', or empty) is returned trimmed as it was.
 */
export function abbreviateCount(value: number | string | null | undefined): string {
  if (value === null || value === undefined) return '0';
  const text = typeof value === 'number' ? String(value) : value.trim();
  const n = typeof value === 'number' ? value : Number(text.replace(/[,\s_]/g, ''));
  if (text === '' || !Number.isFinite(n)) return text;
  return COMPACT.format(Math.abs(n) < 1000 ? Math.round(n) : n);
}
