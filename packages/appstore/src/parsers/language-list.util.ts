/**
 * Language lists as product pages write them: in the page's own language and with its own
 * separators ("English, German and Japanese", "日本語、英語", "简体中文、英语", "Alemão e Inglês").
 * The separators come from the locale data of the runtime (CLDR through `Intl.ListFormat`), not
 * from a table of our own, so a storefront language we never saw is split the same way.
 */

// List separators of every script: comma, full-width and ideographic commas, Arabic comma,
// semicolons. Each may be followed by any space (U+00A0 and U+202F included).
const SEPARATORS = /\s*[,，、،;；]\s*/u;

const conjunctionCache = new Map<string, string[]>();

/**
 * The words that join the last two items of a list in `locale` ('and', 'e', 'et', '和', 'и',
 * ...), from `Intl.ListFormat`'s conjunction parts, plus English 'and' (English-language pages
 * are served on many storefronts). Empty words and bare separators are left out.
 */
function conjunctions(locale: string | null): string[] {
  const key = locale ?? '';
  const cached = conjunctionCache.get(key);
  if (cached) return cached;
  const words = new Set<string>(['and']);
  for (const tag of locale ? [locale] : []) {
    try {
      const parts = new Intl.ListFormat(tag, { type: 'conjunction' }).formatToParts([
        'a',
        'b',
        'c',
      ]);
      for (const part of parts) {
        if (part.type !== 'literal') continue;
        const word = part.value.replace(SEPARATORS, ' ').trim();
        if (word !== '' && !/^[\s,，、،;；]+$/u.test(word)) words.add(word);
      }
    } catch {
      // An unknown language tag: English 'and' only.
    }
  }
  const list = [...words];
  conjunctionCache.set(key, list);
  return list;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** True when `word` is written without spaces around it (CJK '和'). */
function isUnspaced(word: string): boolean {
  return /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+$/u.test(word);
}

/**
 * Splits a product page's language list into names, in the page's order: at list separators
 * (`,` `、` `，` `،` `;`) and, in the last item only, at the page language's conjunction
 * ("English and French" -> ['English', 'French']; "Inglês e Português" with 'pt-BR'; "A, B,
 * and C" -> ['A', 'B', 'C']). Names
 * are trimmed (U+00A0 and U+202F included); empty ones are dropped. `locale` is the page's
 * `<html lang>`; null uses English only.
 */
export function splitLanguageList(text: string, locale: string | null): string[] {
  const items = text
    .split(SEPARATORS)
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const last = items.pop();
  if (last === undefined) return [];
  for (const word of conjunctions(locale)) {
    // "English, French, and German": the conjunction opens the last item.
    const opening = new RegExp(`^${escapeRegExp(word)}\\s+(?=\\S)`, 'iu');
    if (!isUnspaced(word) && opening.test(last)) return [...items, last.replace(opening, '')];
    const pattern = isUnspaced(word)
      ? new RegExp(`(?<=\\S)${escapeRegExp(word)}(?=\\S)`, 'u')
      : new RegExp(`\\s+${escapeRegExp(word)}\\s+`, 'iu');
    const pieces = last.split(pattern).map((t) => t.trim());
    if (pieces.length === 2 && pieces.every((t) => t !== '')) {
      return [...items, ...pieces];
    }
  }
  return [...items, last];
}

const namesCache = new Map<string, ReadonlySet<string>>();
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const SCRIPT_VARIANTS = [
  'zh-Hans',
  'zh-Hant',
  'pt-BR',
  'pt-PT',
  'en-GB',
  'en-US',
  'es-MX',
  'fr-CA',
];

/**
 * Names of the world's languages (every ISO 639-1 code the runtime can name, plus the script
 * and region variants the App Store lists) in `locale` and in English, lower case. Built once
 * per locale from `Intl.DisplayNames`.
 */
export function languageNames(locale: string | null): ReadonlySet<string> {
  const key = locale ?? '';
  const cached = namesCache.get(key);
  if (cached) return cached;
  const names = new Set<string>();
  for (const tag of ['en', ...(locale ? [locale] : [])]) {
    let display: Intl.DisplayNames;
    try {
      display = new Intl.DisplayNames([tag], { type: 'language', fallback: 'none' });
    } catch {
      continue;
    }
    const codes = [...SCRIPT_VARIANTS];
    for (const a of LETTERS) for (const b of LETTERS) codes.push(a + b);
    for (const code of codes) {
      try {
        const name = display.of(code);
        if (name) names.add(name.toLowerCase());
      } catch {
        // Not a valid code for this runtime.
      }
    }
  }
  namesCache.set(key, names);
  return names;
}
