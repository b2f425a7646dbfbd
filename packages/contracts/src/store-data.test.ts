import { describe, expect, it } from 'vitest';
import {
  APP_STORE_STOREFRONTS,
  isAppStoreStorefront,
  unknownStorefrontMessage,
} from './storefronts';
import {
  listingFieldState,
  storeDataLine,
  summariseStoreData,
  unreadableSectionInputs,
} from './store-data';
import type { TStoreData } from './listing';

const storeData: TStoreData = {
  layout: '2025',
  pageLanguage: 'ko',
  requestedLanguage: null,
  sources: {
    lookup: { status: 'not_found', detail: null },
    page: { status: 'ok', detail: null },
    reviews: { status: 'failed', detail: 'HTTP 503' },
  },
  fields: {
    appName: { state: 'read', source: 'page:2025', reason: null },
    subtitle: { state: 'not_on_listing', source: 'page:2025', reason: null },
    previews: { state: 'not_on_listing', source: 'page:2025', reason: null },
    rating: { state: 'unreadable', source: null, reason: 'not found on the 2025 page' },
    reviewCount: { state: 'unreadable', source: null, reason: 'not found on the 2025 page' },
    inAppEvents: {
      state: 'unreadable',
      source: null,
      reason: 'not read from the 2025 page layout',
    },
    reviews: { state: 'unreadable', source: null, reason: 'reviews feed: HTTP 503' },
  },
};

describe('storefronts', () => {
  it('lists the 175 App Store storefronts, lower case', () => {
    expect(APP_STORE_STOREFRONTS).toHaveLength(175);
    expect(new Set(APP_STORE_STOREFRONTS).size).toBe(175);
    for (const code of ['us', 'jp', 'kr', 'br', 'cn', 'tr', 'xk']) {
      expect(isAppStoreStorefront(code)).toBe(true);
    }
    expect(isAppStoreStorefront('GB')).toBe(true);
    for (const code of ['uk', 'xx', 'eu', 'kp']) expect(isAppStoreStorefront(code)).toBe(false);
    expect(unknownStorefrontMessage('uk')).toMatch(/^"uk" is not an App Store storefront/);
  });
});

describe('store data line', () => {
  it('groups the record: layout and language, sources, absent fields, unreadable by reason', () => {
    expect(summariseStoreData(storeData)).toEqual({
      layout: '2025 page layout (ko)',
      sources: ['lookup: app not listed', 'reviews feed failed (HTTP 503)'],
      notOnListing: ['subtitle', 'preview videos'],
      unreadable: [
        { reason: 'not found on the 2025 page', labels: ['rating', 'rating count'] },
        { reason: 'not read from the 2025 page layout', labels: ['in-app events'] },
      ],
    });
    expect(storeDataLine(storeData)).toBe(
      'Store data: 2025 page layout (ko), lookup: app not listed, reviews feed failed (HTTP 503). ' +
        'Not on the listing: subtitle, preview videos. Could not be read: rating, rating count ' +
        '(not found on the 2025 page); in-app events (not read from the 2025 page layout).',
    );
  });

  it('says when every field could be read', () => {
    const all: TStoreData = {
      ...storeData,
      sources: { ...storeData.sources, lookup: { status: 'ok', detail: null } },
      fields: { appName: { state: 'read', source: 'page:2025', reason: null } },
    };
    expect(storeDataLine(all)).toBe(
      'Store data: 2025 page layout (ko), lookup, reviews feed failed (HTTP 503). Every field could be read.',
    );
  });

  it('names the unreadable inputs of a section', () => {
    expect(unreadableSectionInputs(storeData, 'rating')).toEqual([
      { field: 'rating', label: 'rating', reason: 'not found on the 2025 page' },
      { field: 'reviewCount', label: 'rating count', reason: 'not found on the 2025 page' },
    ]);
    expect(unreadableSectionInputs(storeData, 'subtitle')).toEqual([]);
    expect(unreadableSectionInputs(storeData, 'keywords')).toEqual([]);
    expect(unreadableSectionInputs(null, 'rating')).toEqual([]);
  });

  it('reads field states from the record, or from unknownFields on older listings', () => {
    expect(listingFieldState({ unknownFields: [], storeData }, 'previews')).toBe('not_on_listing');
    expect(listingFieldState({ unknownFields: ['previews'] }, 'previews')).toBe('unreadable');
    expect(listingFieldState({ unknownFields: [], previews: [] }, 'previews')).toBe(
      'not_on_listing',
    );
    expect(listingFieldState({ unknownFields: [], subtitle: 'x' }, 'subtitle')).toBe('read');
  });
});
