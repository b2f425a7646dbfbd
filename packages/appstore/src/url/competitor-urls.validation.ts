import {
  isValidAppStoreUrl,
  parseAppStoreUrl,
  type TParsedAppStoreUrl,
  type TValidAppStoreUrl,
} from './app-store-url.validation';

/**
 * Message for a competitor URL whose app is already in the form (docs/product.md#validation-rules).
 */
export const URL_ERROR_DUPLICATE = 'This URL already exists';
/** At most three competitor apps per audit (docs/product.md#limits-and-constants). */
export const MAX_COMPETITOR_URLS = 3;

function sameAppId(a: string, b: string): boolean {
  // App ids are digits, so case only matters for how the `id` prefix was written; compare
  // case-insensitively anyway so the rule reads exactly as the product's rules state it.
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * Indexes of the competitor fields that repeat an app already in the form
 * (docs/product.md#validation-rules): a competitor whose app id equals the main app's, or equals
 * that of an earlier competitor field (the first occurrence is kept, later ones are duplicates).
 * Empty and invalid fields are never duplicates. Inputs are the raw field values.
 */
export function findDuplicateCompetitors(mainUrl: string, competitorUrls: string[]): number[] {
  const main = parseAppStoreUrl(mainUrl);
  const seen: string[] = isValidAppStoreUrl(main) ? [main.appId] : [];
  const duplicates: number[] = [];
  competitorUrls.forEach((value, index) => {
    const parsed = parseAppStoreUrl(value);
    if (!isValidAppStoreUrl(parsed)) return;
    if (seen.some((id) => sameAppId(id, parsed.appId))) duplicates.push(index);
    else seen.push(parsed.appId);
  });
  return duplicates;
}

/**
 * Field states of the competitor URL fields (docs/product.md#entities): each
 * field parsed with {@link parseAppStoreUrl}, then fields that repeat an app (see
 * {@link findDuplicateCompetitors}) turned invalid with 'This URL already exists'.
 */
export function validateCompetitorUrls(
  mainUrl: string,
  competitorUrls: string[],
): TParsedAppStoreUrl[] {
  const duplicates = new Set(findDuplicateCompetitors(mainUrl, competitorUrls));
  return competitorUrls.map((value, index) => {
    const parsed = parseAppStoreUrl(value);
    if (!duplicates.has(index)) return parsed;
    const { appId: _a, normalizedUrl: _n, ...rest } = parsed;
    return { ...rest, status: 'invalid', error: URL_ERROR_DUPLICATE };
  });
}

/**
 * The competitors an audit is started with (docs/product.md#validation-rules): only fields that are
 * valid, non-empty and not duplicates (of the main app or of an earlier competitor), in field
 * order, at most three.
 */
export function selectCompetitors(mainUrl: string, competitorUrls: string[]): TValidAppStoreUrl[] {
  return validateCompetitorUrls(mainUrl, competitorUrls)
    .filter(isValidAppStoreUrl)
    .slice(0, MAX_COMPETITOR_URLS);
}
