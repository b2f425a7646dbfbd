/**
 * @aso/appstore: App Store URL rules (shared with the web form), product page parsers per
 * layout, the lookup and reviews parsers, listing merge and diff (docs/product.md#system-shape).
 * Everything here is pure and browser-safe; the store client and the replay server are node-only
 * and live behind `@aso/appstore/node`.
 */
export * from './url/app-store-url.validation';
export * from './url/competitor-urls.validation';
export * from './errors/store.errors';
export * from './parsers/text.helpers';
export * from './parsers/artwork.helpers';
export * from './parsers/device-class.helpers';
export * from './parsers/in-app-event.helpers';
export * from './parsers/html-scan';
export * from './parsers/parser.types';
export * from './parsers/ember.parser';
export * from './parsers/serialized-server-data.parser';
export * from './parsers/json-ld.parser';
export * from './parsers/product-page.parser';
export * from './parsers/lookup.parser';
export * from './parsers/reviews.parser';
export * from './parsers/search.parser';
export * from './parsers/search-hints.parser';
export * from './listing/listing.merge';
export * from './listing/listing.changes';
