import { describe, expect, it } from 'vitest';
import { parseSearchHints, STOREFRONT_IDS } from './search-hints.parser';

/** A CONSTRUCTED answer in the shape of the store's property list (title, hints with terms). */
const ANSWER = `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>title</key><string>Suggestions</string>
<key>hints</key><array>
<dict><key>term</key><string>music</string><key>priority</key><integer>9000</integer><key>url</key><string>https://example.invalid/a</string></dict>
<dict><key>term</key><string>music &amp; radio</string><key>url</key><string>https://example.invalid/b</string></dict>
<dict><key>term</key><string>  </string></dict>
<dict><key>term</key><string>music</string></dict>
</array>
<key>other</key><array><dict><key>term</key><string>not a hint</string></dict></array>
</dict></plist>`;

describe('search hints', () => {
  it('reads the terms of the hints array in order, entities decoded, blanks and repeats dropped', () => {
    expect(parseSearchHints(ANSWER)).toEqual(['music', 'music & radio']);
  });

  it('gives no hints for an empty list, an empty body or something else', () => {
    expect(
      parseSearchHints(
        '<plist><dict><key>title</key><string>Suggestions</string><key>hints</key><array></array></dict></plist>',
      ),
    ).toEqual([]);
    expect(parseSearchHints('')).toEqual([]);
    expect(parseSearchHints('{"hints":[{"term":"music"}]}')).toEqual([]);
    expect(parseSearchHints('<html><body>Not found</body></html>')).toEqual([]);
  });

  it('knows the storefront ids the store wants in X-Apple-Store-Front', () => {
    expect(STOREFRONT_IDS.us).toBe(143441);
    expect(STOREFRONT_IDS.gb).toBe(143444);
    expect(STOREFRONT_IDS.jp).toBe(143462);
  });
});
