import { describe, expect, it } from 'vitest';
import type { TStoreData } from '@aso/contracts';
import { auditPrintHeader } from './print-header';

// A CONSTRUCTED store data record of one live read.
const storeData: TStoreData = {
  layout: '2025',
  pageLanguage: 'en',
  requestedLanguage: null,
  sources: {
    lookup: { status: 'ok', detail: null },
    page: { status: 'ok', detail: null },
    reviews: { status: 'ok', detail: null },
  },
  fields: {},
  readAt: '2026-11-28T09:14:31.000Z',
};
const audit = {
  appName: 'Tom & Jerry',
  storefront: 'gb',
  storeData,
  createdAt: '2026-11-28T09:14:00.000Z',
  completedAt: '2026-11-28T09:15:10.000Z',
};

describe('auditPrintHeader', () => {
  it('names the app, the storefront and when the store data was read', () => {
    expect(auditPrintHeader(audit)).toBe(
      'Tom & Jerry · GB storefront · Store data read 2026-11-28 09:14 UTC',
    );
  });
  it('in offline replay, the recording dates', () => {
    const replayed: TStoreData = {
      ...storeData,
      sources: {
        lookup: { status: 'ok', detail: null, recordedOn: '2026-06' },
        page: { status: 'ok', detail: null, recordedOn: '2025-07' },
        reviews: { status: 'skipped', detail: null },
      },
    };
    expect(auditPrintHeader({ ...audit, storeData: replayed })).toBe(
      'Tom & Jerry · GB storefront · Store data recorded 2025-07 and 2026-06 (offline replay)',
    );
  });
  it('an audit stored before store data was dated names when it ran', () => {
    expect(auditPrintHeader({ ...audit, storeData: null, appName: null })).toBe(
      'App · GB storefront · Audit of 2026-11-28 09:15 UTC',
    );
  });
});
