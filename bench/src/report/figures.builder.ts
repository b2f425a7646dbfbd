import { median, percentile } from '../stats/stats.helpers';
import type { TFigure, TUnit } from '../bench.types';

/**
 * Collects the samples of a benchmark's figures over its repeated runs, in first-seen order:
 * `add` one value per run, `baseline` the in-run baseline's values.
 */
export class FiguresBuilder {
  private readonly figures = new Map<string, TFigure>();

  /** Adds one run's `value` of figure `id` (created with `label` and `unit` on first use). */
  add(id: string, label: string, unit: TUnit, value: number): this {
    let f = this.figures.get(id);
    if (!f) this.figures.set(id, (f = { id, label, unit, samples: [] }));
    f.samples.push(value);
    return this;
  }

  /** Sets the baseline of figure `id` (same unit): its label and the values measured in this run. */
  baseline(id: string, label: string, values: readonly number[]): this {
    const f = this.figures.get(id);
    if (!f) throw new Error(`no figure ${id} to give a baseline`);
    f.baseline = { label, samples: [...values] };
    return this;
  }

  /** Samples of figure `id` (empty when unknown). */
  samples(id: string): number[] {
    return this.figures.get(id)?.samples ?? [];
  }

  /** Median of figure `id`'s samples; NaN when it has none. */
  median(id: string): number {
    const s = this.samples(id);
    return s.length ? median(s) : Number.NaN;
  }

  /** p95 (nearest rank) of figure `id`'s samples; NaN when it has none. */
  p95(id: string): number {
    const s = this.samples(id);
    return s.length ? percentile(s, 95) : Number.NaN;
  }

  /** The figures, in the order they were first added. */
  build(): TFigure[] {
    return [...this.figures.values()];
  }
}
