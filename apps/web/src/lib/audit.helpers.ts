/**
 * Pure rules of the audit screens (docs/product.md#results-view, #entities and
 * #limits-and-constants). No I/O, no React.
 */
import { DEFAULT_STOREFRONT, parseAppStoreUrl } from '@aso/appstore';
import { buildSavedAuditName } from '@aso/aso-rules';
import type { TAudit, TListingField } from '@aso/contracts';

/**
 * Estimated duration of an audit by the number of valid App Store links (main app plus valid,
 * unique competitors), in ms (docs/product.md#limits-and-constants): none 0, 1 -> 1 min, 2 -> 2
 * min, 3 -> 3 min, 4 -> 3 min 40 s. More than 4 cannot happen (3 competitors at most) and counts as
 * 4.
 */
export function estimateDurationMs(validLinks: number): number {
  const n = Math.max(0, Math.floor(validLinks));
  if (n === 0) return 0;
  if (n >= 4) return 220_000;
  return n * 60_000;
}

/**
 * The storefront (two lower-case letters) of an App Store URL: its two-letter path segment,
 * default 'us' (docs/product.md#entities, Saved audit).
 */
export function storefrontOf(url: string | null | undefined): string {
  return parseAppStoreUrl(url).storefront || DEFAULT_STOREFRONT;
}

/**
 * Name of a saved audit: '<app name> <CC> <dd-mm-yyyy>' (docs/product.md#entities), e.g.
 * 'Spotify: Music and Podcasts US 21-11-2026'. The storefront comes from the audit's
 * `storefront` when it is two letters, else from its URL. Throws a RangeError for an invalid date.
 */
export function savedAuditName(
  audit: { appName: string | null; storefront?: string | null; appStoreUrl: string },
  date: Date,
): string {
  const storefront = /^[a-z]{2}$/i.test(audit.storefront ?? '')
    ? audit.storefront!.toLowerCase()
    : storefrontOf(audit.appStoreUrl);
  return buildSavedAuditName(audit.appName?.trim() || 'Untitled app', storefront, date);
}

/**
 * Competitor screenshot analysis as the standalone result page shows it
 * (docs/product.md#result-page): list numbering ('1.', '2)', '#1', '1 -') is removed at the start
 * of each line, and everything from the first 'To improve' or 'A/B Testing' part to the end is
 * dropped (with its heading markup such as '**' or '###'). Whitespace is tidied; paragraphs are
 * kept.
 */
export function cleanScreenshotAnalysis(text: string | null | undefined): string {
  if (!text) return '';
  let out = text.replace(/\r\n?/g, '\n');
  const cut = /\b(?:to improve|a\/b[ -]?testing)\b/i.exec(out);
  if (cut) out = out.slice(0, cut.index).replace(/[\s*#_>:(\u2013\u2014-]*$/, '');
  return out
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s*(?:[-*\u2022]\s*)?(?:#?\d{1,2}\s*[.):-]|#\d{1,2})(?:\s+|$)/, '')
        .replace(/[ \t]+/g, ' ')
        .trim(),
    )
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Why listing field `field` of the audited app could not be read from the store (its store
 * data record's reason, or 'could not be read'), or null when it was read or is known to be
 * absent, and for audits stored before the record existed.
 */
export function unreadReason(
  audit: Pick<TAudit, 'storeData'>,
  field: TListingField,
): string | null {
  const provenance = audit.storeData?.fields[field];
  if (provenance?.state !== 'unreadable') return null;
  return provenance.reason ?? 'could not be read';
}
