/**
 * App Store URL rules of the audit form (docs/product.md#validation-rules and
 * #states-and-transitions). Pure and browser-safe: the web form and the gateway use the same
 * functions, so a URL the form accepts is one the gateway accepts.
 */
import { isAppStoreStorefront, unknownStorefrontMessage } from '@aso/contracts';

/** The App Store host of product page links (docs/product.md#validation-rules `{host}`). */
export const APP_STORE_HOST = 'apps.apple.com';
/** Host of older App Store links, still shared widely; normalised to {@link APP_STORE_HOST}. */
export const LEGACY_APP_STORE_HOST = 'itunes.apple.com';
/**
 * Storefront used when a URL has no two-letter country segment (docs/product.md#entities and
 * #limits-and-constants).
 */
export const DEFAULT_STOREFRONT = 'us';

/**
 * Message for a value that is not a URL or not an App Store URL (docs/product.md#validation-rules).
 */
export const URL_ERROR_INVALID = 'Enter a valid App Store URL.';
/** Message for an App Store URL without `id<digits>` (docs/product.md#validation-rules). */
export const URL_ERROR_NO_APP_ID = "Couldn't extract an app ID from this URL.";

/** Status of a URL field (docs/product.md#entities). */
export type TUrlStatus = 'idle' | 'valid' | 'invalid';

/**
 * Result of {@link parseAppStoreUrl}: the documented URL field state minus the raw value.
 * `appId` and `normalizedUrl` are set only when `status` is 'valid'; `error` only when
 * 'invalid'. `storefront` is always set (default 'us'); `language` only when the URL carries a
 * valid `?l=` language (e.g. 'fr-CA').
 */
export interface TParsedAppStoreUrl {
  status: TUrlStatus;
  error?: string;
  appId?: string;
  normalizedUrl?: string;
  storefront: string;
  language?: string;
}

/** A valid parse result: app id, normalised URL and storefront are known. */
export type TValidAppStoreUrl = TParsedAppStoreUrl & {
  status: 'valid';
  appId: string;
  normalizedUrl: string;
};

const ALLOWED_HOSTS: ReadonlySet<string> = new Set([APP_STORE_HOST, LEGACY_APP_STORE_HOST]);
const APP_ID_SEGMENT = /^id(\d+)$/i;
const STOREFRONT_SEGMENT = /^[a-z]{2}$/i;
// Slugs are Apple's lower-case, dash-separated app names; anything else is dropped rather
// than carried into the normalised URL.
const SLUG_SEGMENT = /^[\p{L}\p{N}][\p{L}\p{N}._~-]*$/u;
// A BCP 47 language tag as the store's `?l=` takes it ('fr', 'fr-CA', 'zh-Hant-TW', 'es-MX').
const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8}){0,2}$/i;

/**
 * The `?l=` language of a store URL when it is a language tag ('fr-CA'), else undefined. A
 * storefront with several languages (ca: English and French, ch, be, ...) serves the page,
 * and its texts, in that language.
 */
export function storeLanguageOf(value: string | null | undefined): string | undefined {
  const tag = value?.trim();
  return tag && LANGUAGE_TAG.test(tag) ? tag : undefined;
}

function invalid(error: string): TParsedAppStoreUrl {
  return { status: 'invalid', error, storefront: DEFAULT_STOREFRONT };
}

/**
 * Validates and normalises an App Store product page URL (docs/product.md#validation-rules).
 *
 * - Empty or whitespace-only input is accepted: `{ status: 'idle' }`.
 * - The input is trimmed, must parse as an absolute `https:`/`http:` URL whose host is exactly
 *   `apps.apple.com` (or the legacy `itunes.apple.com`), with no user info and no explicit
 *   port; otherwise 'Enter a valid App Store URL.'. A link that starts with the store's host
 *   and no scheme (`apps.apple.com/us/app/...`, as people type or paste it) is read as
 *   `https://` (and normalised so). Look-alike hosts such as
 *   `apps.apple.com.evil.com` and `apps.apple.com@evil.com` are rejected.
 * - A path segment `id<digits>` (any case: `ID123` too) gives the app id; without one the
 *   error is "Couldn't extract an app ID from this URL.".
 * - The storefront is the leading two-letter path segment, lower-cased, default 'us'; it must
 *   be one of the App Store's storefronts (`APP_STORE_STOREFRONTS` of @aso/contracts), else
 *   the error names it ('"uk" is not an App Store storefront ...').
 * - `normalizedUrl` is `https://apps.apple.com/<cc>/app/[<slug>/]id<digits>?platform=iphone`: the
 *   platform query parameter is forced to iphone (docs/product.md#validation-rules); a valid `l`
 *   language parameter is kept (`&l=fr-CA`), other query parameters and the fragment are dropped.
 *
 * Never throws.
 */
export function parseAppStoreUrl(input: string | null | undefined): TParsedAppStoreUrl {
  const value = (input ?? '').trim();
  if (value === '') return { status: 'idle', storefront: DEFAULT_STOREFRONT };

  let url: URL;
  try {
    url = new URL(withScheme(value));
  } catch {
    return invalid(URL_ERROR_INVALID);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return invalid(URL_ERROR_INVALID);
  if (url.username !== '' || url.password !== '' || url.port !== '') {
    return invalid(URL_ERROR_INVALID);
  }
  if (!ALLOWED_HOSTS.has(url.hostname)) return invalid(URL_ERROR_INVALID);

  const segments = url.pathname.split('/').filter((s) => s !== '');
  const idIndex = segments.findIndex((s) => APP_ID_SEGMENT.test(s));
  const appId = idIndex >= 0 ? APP_ID_SEGMENT.exec(segments[idIndex]!)?.[1] : undefined;
  if (appId === undefined) return invalid(URL_ERROR_NO_APP_ID);

  const first = segments[0];
  const storefront =
    first !== undefined && idIndex > 0 && STOREFRONT_SEGMENT.test(first)
      ? first.toLowerCase()
      : DEFAULT_STOREFRONT;
  if (!isAppStoreStorefront(storefront)) {
    return { ...invalid(unknownStorefrontMessage(storefront)), storefront };
  }
  const language = storeLanguageOf(url.searchParams.get('l'));

  const before = idIndex > 0 ? segments[idIndex - 1] : undefined;
  const slugCandidate = before === undefined ? undefined : safeDecode(before).toLowerCase();
  const slug =
    slugCandidate !== undefined &&
    slugCandidate !== 'app' &&
    !(idIndex - 1 === 0 && STOREFRONT_SEGMENT.test(slugCandidate)) &&
    SLUG_SEGMENT.test(slugCandidate)
      ? slugCandidate
      : undefined;

  return {
    status: 'valid',
    appId,
    storefront,
    normalizedUrl: buildAppStoreUrl(appId, storefront, slug, language),
    ...(language ? { language } : {}),
  };
}

// A store link as people paste it from a share sheet or type it: the host first, without a
// scheme ('apps.apple.com/us/app/...', '//apps.apple.com/...', 'www.apps.apple.com' is no host
// of the store and stays refused).
const SCHEMELESS_STORE_LINK = /^(?:\/\/)?(?:apps|itunes)\.apple\.com(?=[/?#]|$)/i;

/** `value` with `https://` in front when it is a store link without a scheme. */
function withScheme(value: string): string {
  return SCHEMELESS_STORE_LINK.test(value) ? `https://${value.replace(/^\/\//, '')}` : value;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** True when `result` is a valid parse (narrows the type). */
export function isValidAppStoreUrl(result: TParsedAppStoreUrl): result is TValidAppStoreUrl {
  return result.status === 'valid' && result.appId !== undefined;
}

/**
 * The normalised product page URL of an app:
 * `https://apps.apple.com/<storefront>/app/[<slug>/]id<appId>?platform=iphone[&l=<language>]`.
 * `appId` must be digits and `storefront` two letters; throws a `TypeError` naming the bad
 * argument otherwise. A `language` that is not a language tag is left out.
 */
export function buildAppStoreUrl(
  appId: string,
  storefront = DEFAULT_STOREFRONT,
  slug?: string,
  language?: string,
) {
  if (!/^\d+$/.test(appId)) throw new TypeError(`appId must be digits, got "${appId}"`);
  if (!STOREFRONT_SEGMENT.test(storefront)) {
    throw new TypeError(`storefront must be two letters, got "${storefront}"`);
  }
  const slugPart = slug ? `${encodeURIComponent(slug)}/` : '';
  const tag = storeLanguageOf(language);
  const languagePart = tag ? `&l=${encodeURIComponent(tag)}` : '';
  return `https://${APP_STORE_HOST}/${storefront.toLowerCase()}/app/${slugPart}id${appId}?platform=iphone${languagePart}`;
}
