import type { TUnit } from '../bench.types';

/** A number with a sensible count of decimals for its size (3 significant digits, at most 2 decimals above 1). */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  if (abs >= 100) return Math.round(value).toLocaleString('en-US');
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  if (abs === 0) return '0';
  return value.toPrecision(2);
}

/** `value` with its unit, e.g. '1.23 s', '45.0 ms', '12 %', '2.50x'. */
export function formatValue(value: number, unit: TUnit): string {
  const n =
    Number.isInteger(value) && unit === 'count'
      ? value.toLocaleString('en-US')
      : formatNumber(value);
  if (n === 'n/a') return n;
  switch (unit) {
    case 'count':
      return n;
    case 'x':
      return `${n}x`;
    case '%':
      return `${n} %`;
    case 'ms':
    case 's':
    case 'KB':
    case 'MB':
    case 'MB/s':
    case 'req/s':
    case 'audits/min':
      return `${n} ${unit}`;
  }
}

/** A ratio as '0.42x'; 'n/a' when there is none. */
export function formatRatio(value: number | null): string {
  return value === null
    ? 'n/a'
    : `${value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toPrecision(3)}x`;
}
