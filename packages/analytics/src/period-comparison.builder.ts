import type { TDateRange, TMetricsComparison } from '@aso/contracts';
import { dayNumber, rangeLengthDays } from './date.helpers';
import {
  entryHasData,
  sumCounts,
  toPeriodMetrics,
  type TDatedRow,
  type TPreparedDataset,
  type TScope,
} from './metrics.calculator';
import { comparePeriods } from './period-change.calculator';

/**
 * The rows of an applied range and of its previous period (docs/product.md#dashboard-computation).
 */
export interface TPeriodRows {
  range: TDateRange;
  previousRange: TDateRange;
  currentRows: readonly TDatedRow[];
  previousRows: readonly TDatedRow[];
}

/** Rows with data for `scope`, grouped by their day's position in the period (0 = first day). */
function byPosition(
  rows: readonly TDatedRow[],
  start: string,
  dataset: TPreparedDataset,
  scope: TScope,
): Map<number, TDatedRow[]> {
  const first = dayNumber(start);
  const out = new Map<number, TDatedRow[]>();
  for (const entry of rows) {
    if (entry.day === null || !entryHasData(entry, dataset, scope)) continue;
    const at = dayNumber(entry.day) - first;
    const list = out.get(at);
    if (list) list.push(entry);
    else out.set(at, [entry]);
  }
  return out;
}

/**
 * The applied range against its previous period for one scope (the totals or a source), compared on
 * matching days only (docs/product.md#dashboard-computation: "the same length immediately before
 * the applied range"): day `i` of the previous period matches day `i` of the range, and only pairs
 * of days that both have data for the scope (see `rowHasData`) are compared. `current` sums the
 * whole range; `compared` and `previous` sum the matched days; `coverage` says how many days the
 * previous period has data on and how many were compared. A previous period the data covers only in
 * part is thus compared like for like, and one without data is not compared at all.
 */
export function comparePeriodRows(
  rows: TPeriodRows,
  dataset: TPreparedDataset,
  scope: TScope,
): TMetricsComparison {
  const current = byPosition(rows.currentRows, rows.range.start, dataset, scope);
  const previous = byPosition(rows.previousRows, rows.previousRange.start, dataset, scope);
  const matchedCurrent: TDatedRow[] = [];
  const matchedPrevious: TDatedRow[] = [];
  let comparedDays = 0;
  for (const [at, entries] of current) {
    const before = previous.get(at);
    if (!before) continue;
    comparedDays++;
    matchedCurrent.push(...entries);
    matchedPrevious.push(...before);
  }
  const periodDays = rangeLengthDays(rows.range);
  return comparePeriods(
    toPeriodMetrics(sumCounts(rows.currentRows, dataset, scope)),
    toPeriodMetrics(sumCounts(matchedPrevious, dataset, scope)),
    {
      compared: toPeriodMetrics(sumCounts(matchedCurrent, dataset, scope)),
      coverage: {
        periodDays,
        days: previous.size,
        currentDays: current.size,
        hasData: previous.size > 0,
        comparedDays,
        partial: comparedDays > 0 && comparedDays < periodDays,
      },
    },
  );
}
