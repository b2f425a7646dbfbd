import { LISTING_FIELDS, type TListingField } from '@aso/contracts';
import { UnknownPageLayoutError } from '../errors/store.errors';
import { emberPageParser } from './ember.parser';
import { scanPage } from './html-scan';
import { jsonLdPageParser } from './json-ld.parser';
import type {
  TListingPart,
  TPageParseContext,
  TPageParser,
  TParsedPageLayout,
} from './parser.types';
import { serverDataPageParser } from './serialized-server-data.parser';

/**
 * The page parsers in order of preference: the layouts' own data blocks first, JSON-LD last
 * as the fallback (it carries the fewest fields).
 */
export const PAGE_PARSERS: readonly TPageParser[] = [
  emberPageParser,
  serverDataPageParser,
  jsonLdPageParser,
];

/** A product page read by {@link parseProductPage}. */
export interface TParsedProductPage {
  /** The layout whose parser read the page. */
  layout: TParsedPageLayout;
  /**
   * Values in order of precedence: the layout's own part, then (for the Ember and 2025
   * layouts) the page's JSON-LD, which fills fields the layout's data block lacks.
   */
  parts: TListingPart[];
  /** Fields the page supplied (any part). */
  supplied: TListingField[];
  /** Fields the detected layout normally carries but this page did not. */
  missing: TListingField[];
  /** Fields the page's parsers look for (the layout's and, when read, the JSON-LD's). */
  carries: TListingField[];
  /** The page's language (`<html lang>`), when it says. */
  language: string | null;
  /** The storefront the page says it belongs to, when it says. */
  storefront: string | null;
}

/**
 * Fields a page of `layout` is read for: its parser's and, for the Ember and 2025 layouts, the
 * JSON-LD fallback's. For `unknown` (no parser recognised the page): every field any page
 * parser reads, all of which the page then failed to give.
 */
export function pageLayoutFields(layout: TParsedPageLayout | 'unknown'): TListingField[] {
  const parsers =
    layout === 'unknown'
      ? PAGE_PARSERS
      : PAGE_PARSERS.filter((p) => p.layout === layout || p === jsonLdPageParser);
  return LISTING_FIELDS.filter((field) => parsers.some((p) => p.fields.includes(field)));
}

/** The layout of a product page, or null when no parser recognises it. */
export function detectPageLayout(html: string): TParsedPageLayout | null {
  const page = scanPage(html);
  return PAGE_PARSERS.find((p) => p.detect(page))?.layout ?? null;
}

/**
 * Reads a product page: detects its layout (Ember shoebox, 2025 `serialized-server-data`,
 * else JSON-LD), parses it with that layout's parser and lets the page's JSON-LD fill the
 * fields the layout's block lacks.
 *
 * Throws `UnknownPageLayoutError` (naming every marker looked for) when no parser recognises
 * the page, and `PageParseError` when a marker is present but its data cannot be read.
 */
export function parseProductPage(
  html: string,
  context: TPageParseContext = {},
): TParsedProductPage {
  const page = scanPage(html);
  const parser = PAGE_PARSERS.find((p) => p.detect(page));
  if (!parser) throw new UnknownPageLayoutError(PAGE_PARSERS.map((p) => p.marker));
  const primary = parser.parse(page, context);
  const parts = [primary.part];
  const supplied = new Set(primary.supplied);
  const carries = new Set(parser.fields);
  if (parser !== jsonLdPageParser && jsonLdPageParser.detect(page)) {
    for (const field of jsonLdPageParser.fields) carries.add(field);
    const fallback = jsonLdPageParser.parse(page, context);
    const fill = Object.fromEntries(
      Object.entries(fallback.part.values).filter(
        ([key, value]) => value !== undefined && !supplied.has(key as TListingField),
      ),
    );
    if (Object.keys(fill).length > 0) {
      parts.push({ source: 'page:jsonld', values: fill });
      for (const field of fallback.supplied) supplied.add(field);
    }
  }
  return {
    layout: primary.layout,
    parts,
    supplied: [...supplied],
    missing: primary.missing.filter((f) => !supplied.has(f)),
    carries: [...carries],
    language: primary.language ?? page.lang,
    storefront: primary.storefront ?? null,
  };
}
