/**
 * Apple's metadata limits and the documented thresholds that the rules of this package check.
 * Each constant names its source.
 */

/**
 * App name limit in characters. Sources: docs/product.md#limits-and-constants ("30 characters for
 * title and subtitle"); App Store Connect Help, App information ("Name ... up to 30 characters",
 * https://developer.apple.com/help/app-store-connect/reference/app-information).
 */
export const TITLE_MAX_CHARS = 30;

/**
 * Subtitle limit in characters. Sources: docs/product.md#limits-and-constants; App Store Connect
 * Help, App information.
 */
export const SUBTITLE_MAX_CHARS = 30;

/**
 * Keyword field limit in BYTES of UTF-8 (not characters: a multi-byte letter such as 'é' or '音'
 * costs 2-3 bytes). Sources: docs/product.md#limits-and-constants (100); App Store Connect Help,
 * Platform version information ("Keywords ... limited to 100 bytes",
 * https://developer.apple.com/help/app-store-connect/reference/platform-version-information).
 */
export const KEYWORD_FIELD_MAX_BYTES = 100;

/**
 * Screenshot slots per device size. Sources: docs/product.md#limits-and-constants ("10 screenshot
 * slots"); App Store Connect Help, Screenshot specifications ("up to 10 screenshots",
 * https://developer.apple.com/help/app-store-connect/reference/screenshot-specifications).
 */
export const SCREENSHOT_SLOTS = 10;

/**
 * Screenshots that matter most: the ones visible in search results. Source:
 * docs/product.md#limits-and-constants ("the first 3 matter most").
 */
export const FIRST_SCREENSHOTS = 3;

/**
 * App previews per device size. Source: App Store Connect Help, App preview specifications
 * ("up to three app previews", 15-30 seconds each,
 * https://developer.apple.com/help/app-store-connect/reference/app-preview-specifications).
 */
export const MAX_APP_PREVIEWS = 3;

/**
 * A rating at or above this (stars, 0-5) is healthy. Source: docs/product.md#limits-and-constants.
 */
export const HEALTHY_RATING = 4.3;

/**
 * In-app event text limits in characters: name 30, short description 50, long description
 * 120. Source: App Store Connect Help, Offer in-app events, Configure event details
 * (https://developer.apple.com/help/app-store-connect/offer-in-app-events/configure-event-details).
 */
export const IN_APP_EVENT_LIMITS = {
  name: 30,
  shortDescription: 50,
  longDescription: 120,
} as const;

/**
 * In-app events published on the App Store at once per app (and 10 approved). Source: the
 * same App Store Connect Help page.
 */
export const MAX_PUBLISHED_IN_APP_EVENTS = 5;

/** Competitors compared at most. Source: docs/product.md#limits-and-constants. */
export const MAX_COMPETITORS = 3;

/**
 * Description limit in characters. Source: App Store Connect Help, Platform version
 * information ("up to 4,000 characters",
 * https://developer.apple.com/help/app-store-connect/reference/platform-version-information).
 */
export const DESCRIPTION_MAX_CHARS = 4000;

/**
 * Characters of the description visible before "more" on an iPhone product page (about three
 * lines). Source: industry practice (the product page's collapsed description).
 */
export const DESCRIPTION_VISIBLE_CHARS = 170;

/**
 * Promotional text limit in characters; it appears above the description and can change
 * without a new version. Source: App Store Connect Help, Platform version information.
 */
export const PROMOTIONAL_TEXT_MAX_CHARS = 170;

/**
 * Apple's cellular download limit in bytes (200 MB, decimal as iOS counts): above it an iPhone
 * asks before downloading over cellular by default. Source: App Store Connect Help, Maximum
 * build file sizes (https://developer.apple.com/help/app-store-connect/reference/maximum-build-file-sizes).
 */
export const CELLULAR_DOWNLOAD_LIMIT_BYTES = 200_000_000;
