import { describe, expect, it } from 'vitest';
import { storefrontName, territoryMatchesStorefront, timelinePath } from './watch.helpers';

describe('storefront names', () => {
  it('names a storefront in English and matches App Store Connect territory names', () => {
    expect(storefrontName('gb')).toBe('United Kingdom');
    expect(territoryMatchesStorefront('United Kingdom', 'gb')).toBe(true);
    expect(territoryMatchesStorefront('united states', 'us')).toBe(true);
    expect(territoryMatchesStorefront('Germany', 'de')).toBe(true);
    expect(territoryMatchesStorefront('Germany', 'at')).toBe(false);
    expect(territoryMatchesStorefront('US', 'us')).toBe(true);
  });

  it('builds the timeline path with the storefront', () => {
    expect(timelinePath({ appId: '123', storefront: 'gb' })).toBe('/apps/123?storefront=gb');
  });
});
