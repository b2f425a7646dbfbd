import { describe, expect, it } from 'vitest';
import { datesToReplace } from './instance-ledger';

/** A Date-keyed store applying instances as the importer does (replace, never merge). */
function apply(
  store: Map<string, { processingDate: string; rows: string[] }>,
  processingDate: string,
  records: Array<[string, string]>,
) {
  const owners = new Map([...store].map(([d, v]) => [d, v.processingDate]));
  for (const date of datesToReplace(
    owners,
    processingDate,
    records.map(([d]) => d),
  )) {
    store.set(date, {
      processingDate,
      rows: records.filter(([d]) => d === date).map(([, r]) => r),
    });
  }
}

describe('newest instance owns a Date', () => {
  it('replaces a Date as a whole with the newest instance, a correction dropping rows included', () => {
    const store = new Map<string, { processingDate: string; rows: string[] }>();
    apply(store, '2026-01-02', [
      ['2026-01-01', 'US 6'],
      ['2026-01-01', 'GB 3'],
    ]);
    apply(store, '2026-01-04', [
      ['2026-01-01', 'US 10'],
      ['2026-01-01', 'GB 5'],
      ['2026-01-03', 'US 1'],
    ]);
    expect(store.get('2026-01-01')!.rows).toEqual(['US 10', 'GB 5']);
    // A later correction states the day again without the GB row: the GB row goes.
    apply(store, '2026-01-09', [['2026-01-01', 'US 12']]);
    expect(store.get('2026-01-01')).toEqual({ processingDate: '2026-01-09', rows: ['US 12'] });
    expect(store.get('2026-01-03')!.rows).toEqual(['US 1']);
  });

  it('never lets an older instance read late overwrite a newer one', () => {
    const owners = new Map([['2026-01-01', '2026-01-04']]);
    expect(
      datesToReplace(owners, '2026-01-02', ['2026-01-01', '2026-01-01', '2025-12-31']),
    ).toEqual(['2025-12-31']);
    expect(datesToReplace(owners, '2026-01-04', ['2026-01-01'])).toEqual(['2026-01-01']);
  });
});
