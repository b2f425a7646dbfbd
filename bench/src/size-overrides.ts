import type { TBenchSizes } from './bench.context';

/** A `--size` assignment that names no size or gives it an unusable value. */
export class SizeOverrideError extends Error {
  override readonly name = 'SizeOverrideError';
}

/** Sizes that may be 0: store delays (ms). Every other size counts something and is at least 1. */
const MAY_BE_ZERO = /(?:delayMs|delaysMs)$/;

/** The `<benchmark>.<size>` names of `sizes` whose values are numbers or lists of numbers. */
export function sizeNames(sizes: TBenchSizes): string[] {
  return Object.entries(sizes).flatMap(([bench, fields]) =>
    Object.entries(fields as Record<string, unknown>)
      .filter(([, v]) => typeof v === 'number' || Array.isArray(v))
      .map(([field]) => `${bench}.${field}`),
  );
}

/** `text` as a whole number of at least `min`, or null. */
function wholeNumber(text: string, min: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return Number.isSafeInteger(n) && n >= min ? n : null;
}

/**
 * `sizes` with each `--size` assignment applied: `<benchmark>.<size>=<value>`, e.g.
 * `sse.clients=3000`, `csv.realYears=5`, `reads.pageConnections=64`, or a comma-separated list
 * for a list size (`csv.bytes=2000000,8000000`, `audit.delaysMs=0,500`). Values are whole
 * numbers, at least 1 except store delays (ms), which may be 0. So a held-out load shape (other
 * stream counts, other file sizes) runs the same benchmark code with its floors; the figures'
 * labels and the targets' texts say which shape ran. `csv.rows` (exact row counts, the smoke
 * test's) is cleared by a `csv.bytes` assignment, as `--csv-mb` does.
 *
 * @throws SizeOverrideError naming the assignment: not `name=value`, an unknown name (the
 *   message lists the known ones), or a value that is not a whole number (list) in range.
 */
export function applySizeOverrides(sizes: TBenchSizes, assignments: string[]): TBenchSizes {
  const out = structuredClone(sizes) as unknown as Record<string, Record<string, unknown>>;
  const known = sizeNames(sizes);
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) {
      throw new SizeOverrideError(
        `--size ${assignment}: expected <benchmark>.<size>=<value>, e.g. sse.clients=3000`,
      );
    }
    const name = assignment.slice(0, eq).trim();
    const text = assignment.slice(eq + 1);
    if (!known.includes(name)) {
      throw new SizeOverrideError(
        `--size ${assignment}: no size named ${name}; known: ${known.join(', ')}`,
      );
    }
    const [bench, field] = name.split('.') as [string, string];
    const min = MAY_BE_ZERO.test(field) ? 0 : 1;
    const current = out[bench]![field];
    if (Array.isArray(current)) {
      const values = text.split(',').map((t) => wholeNumber(t, min));
      if (values.length === 0 || values.some((v) => v === null)) {
        throw new SizeOverrideError(
          `--size ${assignment}: ${name} takes a comma-separated list of whole numbers of at least ${min}`,
        );
      }
      out[bench]![field] = values;
      if (bench === 'csv' && field === 'bytes') delete out[bench]!.rows;
    } else {
      const value = wholeNumber(text, min);
      if (value === null) {
        throw new SizeOverrideError(
          `--size ${assignment}: ${name} takes a whole number of at least ${min}`,
        );
      }
      out[bench]![field] = value;
    }
  }
  return out as unknown as TBenchSizes;
}
