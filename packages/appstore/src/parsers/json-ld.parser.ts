import { PageParseError } from '../errors/store.errors';
import { toScannedPage, type TScannedPage } from './html-scan';
import {
  suppliedFields,
  type TListingValues,
  type TPageParseResult,
  type TPageParser,
} from './parser.types';
import { asArray, asRecord, cleanText, formatCount, formatRating, toNumber } from './text.helpers';

type TRecord = Record<string, unknown>;

const APP_TYPES = new Set(['SoftwareApplication', 'MobileApplication']);

function isAppBlock(block: TRecord): boolean {
  const type = block['@type'];
  return (Array.isArray(type) ? type : [type]).some(
    (t) => typeof t === 'string' && APP_TYPES.has(t),
  );
}

/**
 * The schema.org SoftwareApplication block of a page (`<script type="application/ld+json">`,
 * Apple names it `schema:software-application`), searching arrays and `@graph`; null when the
 * page has none. Blocks that are not valid JSON are skipped (other sites' widgets put broken
 * JSON-LD on pages; one bad block must not hide a good one).
 */
export function findSoftwareApplicationBlock(html: string | TScannedPage): TRecord | null {
  const page = toScannedPage(html);
  for (const script of page.scripts) {
    if (script.attributes.type?.toLowerCase() !== 'application/ld+json') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(script.text);
    } catch {
      continue;
    }
    const candidates = Array.isArray(parsed)
      ? parsed
      : [parsed, ...asArray(asRecord(parsed)?.['@graph'])];
    for (const candidate of candidates) {
      const block = asRecord(candidate);
      if (block && isAppBlock(block)) return block;
    }
  }
  return null;
}

/** Reads the listing values a SoftwareApplication JSON-LD block carries. */
export function jsonLdValues(block: TRecord): Partial<TListingValues> {
  const values: Partial<TListingValues> = {};
  const name = cleanText(block.name);
  if (name) values.appName = name;
  const author = asRecord(block.author);
  const developer = cleanText(author?.name) ?? cleanText(block.author);
  if (developer) values.developer = developer;
  const category = cleanText(block.applicationCategory) ?? cleanText(asArray(block.genre)[0]);
  if (category) values.category = category;
  const description = cleanText(block.description);
  if (description) values.description = description;
  const image = block.image;
  const icon = cleanText(image) ?? cleanText(asRecord(image)?.url);
  if (icon) values.iconUrl = icon;
  const url = cleanText(block.url);
  if (url) values.appStoreUrl = url;
  const offers = asRecord(Array.isArray(block.offers) ? block.offers[0] : block.offers);
  const amount = toNumber(offers?.price);
  if (offers && amount !== null) {
    values.price = { amount, currency: cleanText(offers.priceCurrency), formatted: null };
  }
  const aggregate = asRecord(block.aggregateRating);
  const ratingValue = toNumber(aggregate?.ratingValue);
  const count = toNumber(aggregate?.ratingCount) ?? toNumber(aggregate?.reviewCount);
  if (ratingValue !== null) values.rating = formatRating(ratingValue);
  if (count !== null) values.reviewCount = formatCount(count);
  return values;
}

const JSON_LD_FIELDS = [
  'appName',
  'developer',
  'category',
  'rating',
  'reviewCount',
  'description',
  'iconUrl',
  'price',
  'appStoreUrl',
] as const;

/**
 * Fallback parser: the schema.org SoftwareApplication JSON-LD block that both the Ember and
 * the 2025 layouts carry (name, author, applicationCategory, description, image, offers,
 * aggregateRating). It has no subtitle, screenshots per device, previews, events or chart
 * position; those stay unknown when only this parser understands a page.
 */
export const jsonLdPageParser: TPageParser = {
  layout: 'jsonld',
  marker: '<script type="application/ld+json"> with a SoftwareApplication (JSON-LD)',
  fields: JSON_LD_FIELDS,
  detect(html: string | TScannedPage): boolean {
    return findSoftwareApplicationBlock(html) !== null;
  },
  parse(html: string | TScannedPage): TPageParseResult {
    const block = findSoftwareApplicationBlock(html);
    if (!block) throw new PageParseError('jsonld', 'no SoftwareApplication JSON-LD block');
    const values = jsonLdValues(block);
    return {
      layout: 'jsonld',
      part: { source: 'page:jsonld', values },
      ...suppliedFields(values, JSON_LD_FIELDS),
    };
  },
};
