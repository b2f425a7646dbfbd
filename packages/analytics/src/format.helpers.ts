/**
 * Display helpers shared by the web dashboard and the report sentences. Output is fixed
 * English (en-US grouping, '.' decimals) so the server and every browser write the same text.
 */

const COUNT_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function groupThousands(integerDigits: string): string {
  return integerDigits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A count rounded to a whole number and locale-formatted (docs/product.md#dashboard-computation:
 * "counts rounded and locale-formatted"): 1234.6 -> '1,235'. Non-finite input gives '0'.
 */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return '0';
  const rounded = Math.round(value);
  return COUNT_FORMAT.format(rounded === 0 ? 0 : rounded);
}

/**
 * A percentage (already in percent units, 0-100) with one decimal and a '%' sign
 * (docs/product.md#dashboard-computation: "Percentages shown with one decimal"): 4.25 -> '4.3%',
 * 1234.5 -> '1,234.5%'. Rounds half away from zero on the number's exact binary value
 * (Number#toFixed); never prints '-0.0%'. With `signed`, positive values get a '+' ('+3.0%').
 */
export function formatPercent(value: number, options: { signed?: boolean } = {}): string {
  if (!Number.isFinite(value)) return '0.0%';
  const fixed = Math.abs(value).toFixed(1);
  const isZero = /^0\.0$/.test(fixed);
  const [integer, decimals] = fixed.split('.') as [string, string];
  const body = `${groupThousands(integer)}.${decimals}%`;
  if (isZero) return `0.0%`;
  if (value < 0) return `-${body}`;
  return options.signed ? `+${body}` : body;
}

/**
 * A change of a rate in percentage points with one decimal and a sign: 0.2 -> '+0.2 pp',
 * -1.25 -> '-1.3 pp', 0 -> '0.0 pp' (the honest unit for a conversion rate moving from 2.7% to
 * 2.9%, which is not a 0.2% change). Non-finite input gives '0.0 pp'.
 */
export function formatPoints(value: number): string {
  const percent = formatPercent(value, { signed: true });
  return `${percent.slice(0, -1)} pp`;
}

/**
 * A file size in Bytes, KB or MB (docs/product.md#validation-rules: "Sizes display in Bytes, KB or
 * MB with two decimals"): whole bytes below 1 KB ('512 Bytes'), otherwise two decimals with 1 KB =
 * 1024 bytes ('1.50 KB', '20.00 MB'). Sizes of 1 GB and more stay in MB (uploads are capped at 20
 * MB). Throws a RangeError on a negative or non-finite size.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) {
    throw new RangeError(`file size must be a non-negative number of bytes, got ${bytes}`);
  }
  if (bytes < 1024) return `${Math.round(bytes)} Bytes`;
  // 1,048,575 bytes would round up to '1024.00 KB'; show it as '1.00 MB' instead.
  const kb = (bytes / 1024).toFixed(2);
  if (bytes < 1024 * 1024 && Number(kb) < 1024) return `${kb} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
