import { describe, expect, it } from 'vitest';
import type { TStoreData } from './listing';
import { fieldAsOf, storeDataDateLine, storeDataWhen } from './store-data';

// A CONSTRUCTED store data record: page recorded 2025-07, lookup and reviews 2026-06.
const record = (recorded: boolean): TStoreData => ({
  layout: 'ember',
  pageLanguage: 'en',
  requestedLanguage: null,
  sources: {
    lookup: { status: 'ok', detail: null, ...(recorded ? { recordedOn: '2026-06' } : {}) },
    page: { status: 'ok', detail: null, ...(recorded ? { recordedOn: '2025-07' } : {}) },
    reviews: { status: 'ok', detail: null, ...(recorded ? { recordedOn: '2026-06' } : {}) },
  },
  fields: {
    version: { state: 'read', source: 'page:ember', reason: null },
    versionHistory: { state: 'read', source: 'page:ember', reason: null },
    bundleId: { state: 'read', source: 'lookup', reason: null },
    reviews: { state: 'read', source: 'reviews', reason: null },
  },
  readAt: '2026-11-28T09:14:31.000Z',
});

describe('dated store data', () => {
  it('a live read states its UTC time', () => {
    expect(storeDataDateLine(record(false))).toBe('Store data read 2026-11-28 09:14 UTC');
  });
  it('a replay with sources of different dates says which field came from which', () => {
    expect(storeDataDateLine(record(true))).toBe(
      'Store data recorded on different dates (offline replay): lookup 2026-06 (bundle id); product page 2025-07 (version, version history); reviews feed 2026-06 (recent reviews)',
    );
  });
  it('one recording date is stated once', () => {
    const one = record(true);
    one.sources.page.recordedOn = '2026-06';
    expect(storeDataDateLine(one)).toBe('Store data recorded 2026-06 (offline replay)');
  });
  it('in short: the read time, the one recording date, or every date in order', () => {
    expect(storeDataWhen(record(false))).toBe('read 2026-11-28 09:14 UTC');
    expect(storeDataWhen(record(true))).toBe('recorded 2025-07 and 2026-06 (offline replay)');
    const three = record(true);
    three.sources.reviews.recordedOn = '';
    three.sources.lookup.recordedOn = '2024-01';
    expect(storeDataWhen(three)).toBe('recorded 2024-01, 2025-07 and undated (offline replay)');
    const one = record(true);
    one.sources.page.recordedOn = '2026-06';
    expect(storeDataWhen(one)).toBe('recorded 2026-06 (offline replay)');
  });
  it('says nothing when the record has neither a read time nor a recording date', () => {
    const { readAt: _readAt, ...undated } = record(false);
    expect(storeDataWhen(undated)).toBeNull();
    expect(storeDataDateLine(undated)).toBeNull();
    expect(storeDataWhen({ ...undated, readAt: 'not a time' })).toBeNull();
  });
  it('time rules count to the recording date of the field, else the read time', () => {
    const listing = { fetchedAt: '2026-11-28T09:14:31.000Z', storeData: record(true) };
    expect(fieldAsOf(listing, 'versionHistory')).toBe(Date.parse('2025-07'));
    expect(fieldAsOf({ ...listing, storeData: record(false) }, 'versionHistory')).toBe(
      Date.parse('2026-11-28T09:14:31.000Z'),
    );
  });
});
