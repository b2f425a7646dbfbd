import {
  LISTING_FIELDS,
  type TAppListing,
  type TListingField,
  type TListingFieldSource,
  type TPageLayout,
} from '@aso/contracts';
import type { TScannedPage } from './html-scan';

/**
 * The listing values one source can supply: the listing minus identity, bookkeeping and the
 * fields derived while merging (`previewVideoUrl`/`previewPosterUrl` come from `previews`).
 * `chartPosition` travels with `categoryRank`.
 */
export type TListingValues = Omit<
  TAppListing,
  | 'appId'
  | 'storefront'
  | 'fetchedAt'
  | 'sourceLayout'
  | 'fieldSources'
  | 'unknownFields'
  | 'previewVideoUrl'
  | 'previewPosterUrl'
>;

/**
 * What one source yielded: the values it found (a key is present only when the source
 * supplied that field; `null` or `[]` then means "the store says none") and the source tag
 * recorded in `fieldSources`.
 */
export interface TListingPart {
  source: TListingFieldSource;
  values: Partial<TListingValues>;
  /**
   * Category names this source gives besides `values.category` (the lookup's `genres`), for
   * the rule "a subtitle equal to the category is no subtitle".
   */
  categoryNames?: string[];
}

/** Page layouts a parser exists for (`none` is the merge's "no page" value). */
export type TParsedPageLayout = Exclude<TPageLayout, 'none'>;

/** Context a page parser needs: the app the page is expected to be about. */
export interface TPageParseContext {
  /** The app id asked for; records of other apps on the page (also-bought shelves) are skipped. */
  appId?: string;
  /**
   * Category names other sources give (the lookup's `primaryGenreName` and `genres`): they
   * help find the category row, and a subtitle equal to one of them is no subtitle.
   */
  categoryHints?: readonly string[];
}

/** Result of one page parser. */
export interface TPageParseResult {
  layout: TParsedPageLayout;
  part: TListingPart;
  /** Fields this parser supplied. */
  supplied: TListingField[];
  /** Fields this layout normally carries but the page did not (page changed or app has none). */
  missing: TListingField[];
  /** The page's language (`<html lang>`), when it says. */
  language?: string | null;
  /** The storefront the page says it belongs to, when it says (2025: `pageFields.storeFront`). */
  storefront?: string | null;
}

/**
 * One product page layout ("one parser per page layout behind one interface").
 * `detect` says whether the page carries this layout's marker; `parse` reads it and throws
 * `PageParseError` when the marker is there but its data cannot be read.
 */
export interface TPageParser {
  layout: TParsedPageLayout;
  /** Human-readable marker this parser looks for, named in `UnknownPageLayoutError`. */
  marker: string;
  /** Fields this layout is expected to carry (the rest are never looked for). */
  fields: readonly TListingField[];
  detect(html: string | TScannedPage): boolean;
  parse(html: string | TScannedPage, context?: TPageParseContext): TPageParseResult;
}

/** Fields of `values` that are present, in LISTING_FIELDS order of `expected`. */
export function suppliedFields(
  values: Partial<TListingValues>,
  expected: readonly TListingField[],
): { supplied: TListingField[]; missing: TListingField[] } {
  const supplied: TListingField[] = [];
  const missing: TListingField[] = [];
  for (const field of expected) {
    if ((values as Record<string, unknown>)[field] !== undefined) supplied.push(field);
    else missing.push(field);
  }
  for (const field of LISTING_FIELDS) {
    if (!expected.includes(field) && (values as Record<string, unknown>)[field] !== undefined) {
      supplied.push(field);
    }
  }
  return { supplied, missing };
}
