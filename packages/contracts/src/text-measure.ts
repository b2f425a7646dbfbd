/**
 * How store texts are measured against Apple's limits. One implementation for the rules, the
 * analyzer, the web app and the CLI, so a title counted 30 on the results page is 30 in the
 * analysis too.
 */

let segmenter: Intl.Segmenter | null | undefined;

/**
 * Length in characters as the storefront shows them: extended grapheme clusters (Unicode UAX
 * #29, `Intl.Segmenter` with granularity 'grapheme'). A CJK ideograph, a Hangul syllable, an
 * accented letter written with a combining mark ('é' as e + U+0301), a flag and an emoji ZWJ
 * sequence ('👩‍👩‍👧') each count once, where `.length` counts UTF-16 units and code points count
 * each part of a sequence. Used for the 30-character limits of the app name and subtitle
 * (App Store Connect Help, App information:
 * https://developer.apple.com/help/app-store-connect/reference/app-information). Falls back
 * to code points when the runtime has no `Intl.Segmenter`.
 */
export function graphemeCount(text: string): number {
  if (segmenter === undefined) {
    segmenter =
      typeof Intl !== 'undefined' && 'Segmenter' in Intl
        ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
        : null;
  }
  if (segmenter === null) return [...text].length;
  let n = 0;
  for (const _ of segmenter.segment(text)) n += 1;
  return n;
}

const encoder = new TextEncoder();

/**
 * Size of `text` in bytes of UTF-8: the unit of the keyword field's 100-byte limit (App Store
 * Connect Help, Platform version information: "Keywords ... limited to 100 bytes",
 * https://developer.apple.com/help/app-store-connect/reference/platform-version-information).
 * ASCII costs 1 byte, Latin accents and Cyrillic 2, CJK and Hangul 3, emoji 4 per code point.
 */
export function utf8ByteLength(text: string): number {
  return encoder.encode(text).length;
}
