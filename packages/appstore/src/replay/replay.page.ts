import { escapeAttribute, escapeText } from 'entities';
import { resolveArtworkUrl } from '../parsers/artwork.helpers';
import { EMBER_SHOEBOX_ID, findEmberAppRecord } from '../parsers/ember.parser';
import { asArray, asRecord, toNumber } from '../parsers/text.helpers';

// JSON inside <script> must not contain "</script"; Apple escapes "<" as \u003c, and so do we
// for JSON we build. (The recordings already contain no "<".)
function scriptSafe(json: string): string {
  return json.replace(/</g, '\\u003c');
}

/**
 * schema.org SoftwareApplication block built from the same Media API record, in the shape the
 * Ember layout's `<script name="schema:software-application" type="application/ld+json">` had.
 */
export function buildJsonLd(record: Record<string, unknown>): Record<string, unknown> {
  const attributes = asRecord(record.attributes) ?? {};
  const platforms = asRecord(attributes.platformAttributes) ?? {};
  const ios = asRecord(platforms.ios) ?? asRecord(Object.values(platforms)[0]) ?? {};
  const artwork = asRecord(ios.artwork);
  const offers = asArray(ios.offers).map(asRecord);
  const offer = offers.find((o) => o?.type === 'get') ?? offers[0];
  const userRating = asRecord(attributes.userRating);
  const developer = asRecord(asArray(asRecord(asRecord(record.relationships)?.developer)?.data)[0]);
  const block: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'SoftwareApplication',
    name: attributes.name,
    description: asRecord(ios.description)?.standard,
    url: attributes.url,
    operatingSystem: ios.requirementsString,
    applicationCategory: attributes.genreDisplayName,
    datePublished: ios.releaseDate,
    author: {
      '@type': 'Person',
      name: attributes.artistName,
      url: asRecord(developer?.attributes)?.url,
    },
  };
  if (artwork && typeof artwork.url === 'string') {
    block.image = resolveArtworkUrl(artwork.url, {
      width: toNumber(artwork.width) ?? 512,
      height: toNumber(artwork.height) ?? 512,
    });
  }
  if (offer) {
    const price = toNumber(offer.price) ?? 0;
    block.offers = {
      '@type': 'Offer',
      price,
      priceCurrency: offer.currencyCode,
      category: price === 0 ? 'free' : 'paid',
    };
  }
  if (userRating) {
    block.aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: userRating.value,
      reviewCount: userRating.ratingCount,
    };
  }
  return block;
}

/**
 * The Ember-layout product page for a `media-api_*` recording: a small HTML shell (title,
 * canonical link, JSON-LD built from the record) around the recording, which is embedded
 * verbatim as `<script type="fastboot/shoebox" id="shoebox-media-api-cache-apps">`, the way
 * Apple's Ember page carried it. With `malformed`, the shoebox text is cut in half so the
 * layout marker is present but its JSON is broken. Throws PageParseError when the recording
 * holds no record for `appId`.
 */
export function buildEmberPage(recordingText: string, appId: string, malformed = false): string {
  const record = findEmberAppRecord(recordingText, appId);
  const attributes = asRecord(record.attributes) ?? {};
  const name = typeof attributes.name === 'string' ? attributes.name : `App ${appId}`;
  const url = typeof attributes.url === 'string' ? attributes.url : '';
  const shoebox = malformed
    ? recordingText.slice(0, Math.floor(recordingText.length / 2))
    : recordingText;
  return [
    '<!DOCTYPE html>',
    '<html dir="ltr" lang="en-US">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>\u200e${escapeText(name)} on the App Store</title>`,
    `<link rel="canonical" href="${escapeAttribute(url)}">`,
    `<script name="schema:software-application" type="application/ld+json">${scriptSafe(
      JSON.stringify(buildJsonLd(record)),
    )}</script>`,
    '</head>',
    '<body>',
    '<!-- Replay server: page shell built around a recorded Media API response. -->',
    `<main><h1>${escapeText(name)}</h1></main>`,
    '<script type="fastboot/shoebox" id="shoebox-language-code">"en-us"</script>',
    `<script type="fastboot/shoebox" id="${EMBER_SHOEBOX_ID}">${shoebox}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
}

/**
 * A recorded 2025-layout page whose `serialized-server-data` JSON is cut in half: the layout
 * marker is there but its data cannot be read (the replay server's malformed fault). A page
 * without that script is returned with its second half cut off instead.
 */
export function malformedServerDataPage(html: string): string {
  const script = /(<script[^>]*id="serialized-server-data"[^>]*>)([\s\S]*?)<\/script>/i.exec(html);
  if (!script) return html.slice(0, Math.floor(html.length / 2));
  const start = script.index + script[1]!.length;
  const json = script[2]!;
  return html.slice(0, start + Math.floor(json.length / 2)) + html.slice(start + json.length);
}

/** Apple's "can't be found" page, answered with 404 for apps without a page recording. */
export const NOT_FOUND_PAGE = [
  '<!DOCTYPE html>',
  '<html dir="ltr" lang="en-US">',
  '<head><meta charset="utf-8"><title>App Store</title></head>',
  "<body><main><h1>The page you're looking for can't be found.</h1></main></body>",
  '</html>',
].join('\n');
