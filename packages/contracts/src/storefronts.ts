/**
 * The App Store's storefronts: the 175 countries and regions whose two-letter code (ISO 3166-1
 * alpha-2, lower case) is the first path segment of a product page URL
 * (`https://apps.apple.com/<cc>/app/...`), the `country=` of the iTunes lookup and the
 * storefront of the reviews RSS path. Source: the region picker of apps.apple.com (its
 * `/<cc>/iphone/today` links, 175 regions), matching the 175 territories of App Store Connect
 * (https://developer.apple.com/documentation/appstoreconnectapi/territories). `xk` (Kosovo) is
 * Apple's own code; ISO has none.
 */
export const APP_STORE_STOREFRONTS = [
  'ae', 'af', 'ag', 'ai', 'al', 'am', 'ao', 'ar', 'at', 'au', 'az', 'ba', 'bb', 'be', 'bf',
  'bg', 'bh', 'bj', 'bm', 'bn', 'bo', 'br', 'bs', 'bt', 'bw', 'by', 'bz', 'ca', 'cd', 'cg',
  'ch', 'ci', 'cl', 'cm', 'cn', 'co', 'cr', 'cv', 'cy', 'cz', 'de', 'dk', 'dm', 'do', 'dz',
  'ec', 'ee', 'eg', 'es', 'fi', 'fj', 'fm', 'fr', 'ga', 'gb', 'gd', 'ge', 'gh', 'gm', 'gr',
  'gt', 'gw', 'gy', 'hk', 'hn', 'hr', 'hu', 'id', 'ie', 'il', 'in', 'iq', 'is', 'it', 'jm',
  'jo', 'jp', 'ke', 'kg', 'kh', 'kn', 'kr', 'kw', 'ky', 'kz', 'la', 'lb', 'lc', 'lk', 'lr',
  'lt', 'lu', 'lv', 'ly', 'ma', 'md', 'me', 'mg', 'mk', 'ml', 'mm', 'mn', 'mo', 'mr', 'ms',
  'mt', 'mu', 'mv', 'mw', 'mx', 'my', 'mz', 'na', 'ne', 'ng', 'ni', 'nl', 'no', 'np', 'nr',
  'nz', 'om', 'pa', 'pe', 'pg', 'ph', 'pk', 'pl', 'pt', 'pw', 'py', 'qa', 'ro', 'rs', 'ru',
  'rw', 'sa', 'sb', 'sc', 'se', 'sg', 'si', 'sk', 'sl', 'sn', 'sr', 'st', 'sv', 'sz', 'tc',
  'td', 'th', 'tj', 'tm', 'tn', 'to', 'tr', 'tt', 'tw', 'tz', 'ua', 'ug', 'us', 'uy', 'uz',
  'vc', 've', 'vg', 'vn', 'vu', 'xk', 'ye', 'za', 'zm', 'zw',
] as const; // prettier-ignore

export type TAppStoreStorefront = (typeof APP_STORE_STOREFRONTS)[number];

const STOREFRONT_SET: ReadonlySet<string> = new Set(APP_STORE_STOREFRONTS);

/** True when `code` (any case) is one of the App Store's storefronts. */
export function isAppStoreStorefront(code: string): code is TAppStoreStorefront {
  return STOREFRONT_SET.has(code.toLowerCase());
}

/**
 * The message of a two-letter code that is not an App Store storefront, naming it, e.g.
 * `"xx" is not an App Store storefront (use a two-letter country code of the App Store, such as us, gb or jp)`.
 */
export function unknownStorefrontMessage(code: string): string {
  return `"${code}" is not an App Store storefront (use a two-letter country code of the App Store, such as us, gb or jp)`;
}
