/**
 * @aso/appstore: App Store URL rules (shared with the web form), product page parsers per
 * layout, the lookup and reviews parsers, listing merge and diff (DESIGN section 1). Everything
 * here is pure and browser-safe; the store client and the replay server are node-only and live
 * behind `@aso/appstore/node`.
 */
export * from './url/app-store-url.rules';
export * from './url/competitor-urls.rules';
export * from './errors/store.errors';
export * from './parsers/text.util';
export * from './parsers/artwork.util';
export * from './parsers/device-class.util';
export * from './parsers/in-app-event.util';
export * from './parsers/html-scan';
export * from './parsers/parser.types';
export * from './parsers/ember.parser';
export * from './parsers/serialized-server-data.parser';
export * from './parsers/json-ld.parser';
export * from './parsers/product-page.parser';
export * from './parsers/lookup.parser';
export * from './parsers/reviews.parser';
export * from './listing/listing.merge';
export * from './listing/listing.changes';
