import type { TSourceColumns } from '@aso/contracts';
import { ALL_SOURCES, type TTrafficSource } from './sources.constants';

/**
 * The column names of a list of row objects: the union of their keys in first-seen order
 * (rows of the merged CSV normally all share the same keys).
 */
export function collectHeaders(rows: ReadonlyArray<Readonly<Record<string, unknown>>>): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/**
 * The date column: the first column whose name contains 'date', case-insensitive
 * (docs/product.md#entities: Chart data). Null when there is none.
 */
export function findDateColumn(headers: readonly string[]): string | null {
  return headers.find((h) => h.toLowerCase().includes('date')) ?? null;
}

/**
 * Metric columns: every column except those whose names contain 'date' or 'territory',
 * case-insensitive (docs/product.md#entities: Chart data), in header order.
 */
export function getMetricColumns(headers: readonly string[]): string[] {
  return headers.filter((h) => {
    const lower = h.toLowerCase();
    return !lower.includes('date') && !lower.includes('territory');
  });
}

/** Lower case with everything but letters and digits removed: 'Re-Downloads' ~ 'Redownloads'. */
function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Finds the column for a metric (docs/product.md#entities: "Matching is case-insensitive, exact
 * first, then by substring").
 *
 * Each step tries every pattern in order before the next step: (1) exact, case-insensitive,
 * ignoring surrounding spaces; (2) exact after removing spaces and punctuation, so
 * 'First Time Downloads' matches 'First-Time Downloads' and 'Re-Downloads' matches
 * 'Redownloads'; (3) the header contains the pattern, case-insensitive; (4) the same after
 * removing spaces and punctuation. Headers for which `exclude` returns true are skipped.
 *
 * @returns the matching header as written, or null.
 */
export function matchColumn(
  headers: readonly string[],
  patterns: readonly string[],
  exclude?: (header: string) => boolean,
): string | null {
  const candidates = exclude ? headers.filter((h) => !exclude(h)) : [...headers];
  const lowered = candidates.map((h) => h.trim().toLowerCase());
  const squashed = candidates.map(squash);
  const steps: Array<(index: number, pattern: string) => boolean> = [
    (i, p) => lowered[i] === p.trim().toLowerCase(),
    (i, p) => squashed[i] === squash(p),
    (i, p) => lowered[i]!.includes(p.trim().toLowerCase()),
    (i, p) => squash(p) !== '' && squashed[i]!.includes(squash(p)),
  ];
  for (const step of steps) {
    for (const pattern of patterns) {
      const index = candidates.findIndex((_, i) => step(i, pattern));
      if (index >= 0) return candidates[index]!;
    }
  }
  return null;
}

/**
 * Column names per metric for one source (docs/product.md#entities: expected column-name patterns
 * '<Source> First-Time Downloads', '<Source> Impressions (Unique Devices)', '<Source>
 * Redownloads' (App Store Connect also writes 'Re-Downloads'), '<Source> Total Downloads').
 * Impressions fall back to '<Source> Impressions' when no unique-devices column exists.
 */
export function resolveSourceColumns(
  headers: readonly string[],
  source: TTrafficSource,
): TSourceColumns {
  const n = source.name;
  return {
    firstTimeDownloads: matchColumn(headers, [`${n} First-Time Downloads`]),
    redownloads: matchColumn(headers, [`${n} Redownloads`, `${n} Re-Downloads`]),
    totalDownloads: matchColumn(headers, [`${n} Total Downloads`]),
    impressions:
      matchColumn(headers, [`${n} Impressions (Unique Devices)`]) ??
      matchColumn(headers, [`${n} Impressions`]),
  };
}

/** Columns of the all-source totals; null where the export has none. */
export interface TTotalColumns {
  /** 'Total Downloads'. */
  totalDownloads: string | null;
  /** 'Total First-Time Downloads'. */
  firstTimeDownloads: string | null;
  /** 'Total Redownloads' (or 'Total Re-Downloads'). */
  redownloads: string | null;
  /** 'Total Impressions'. */
  impressions: string | null;
}

function namesASource(header: string): boolean {
  const lower = header.toLowerCase();
  return ALL_SOURCES.some((s) => lower.includes(s.name.toLowerCase()));
}

/**
 * Columns of the totals across sources ('Total Downloads', 'Total First-Time Downloads',
 * 'Total Redownloads', 'Total Impressions'; docs/product.md#entities), matched like
 * {@link matchColumn} but never a per-source column: 'App Store Search Total Downloads'
 * contains 'Total Downloads' and must not stand in for it.
 */
export function resolveTotalColumns(headers: readonly string[]): TTotalColumns {
  return {
    totalDownloads: matchColumn(headers, ['Total Downloads'], namesASource),
    firstTimeDownloads: matchColumn(headers, ['Total First-Time Downloads'], namesASource),
    redownloads: matchColumn(headers, ['Total Redownloads', 'Total Re-Downloads'], namesASource),
    impressions: matchColumn(headers, ['Total Impressions'], namesASource),
  };
}
