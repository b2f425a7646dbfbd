/**
 * Language lists as product pages write them: in the page's own language and with its own
 * separators ("English, German and Japanese", "日本語、英語", "简体中文、英语", "Alemão e Inglês").
 * The separators come from the locale data of the runtime (CLDR through `Intl.ListFormat`), not
 * from a table of our own, so a storefront language we never saw is split the same way.
 */

// List separators of every script: comma, full-width and ideographic commas, Arabic comma,
// semicolons. Each may be followed by any space (U+00A0 and U+202F included).
const SEPARATORS = /\s*[,，、،;；]\s*/u;

/** How a locale joins the last two items of a list, as a pattern, and its bare word. */
interface TConjunction {
  /** Matches the joint between two names ('\\s+and\\s+', '和', '\\s+و'). */
  joint: RegExp;
  /** Matches the word opening an item ("and German" after an Oxford comma); null when unspaced. */
  opening: RegExp | null;
}

const conjunctionCache = new Map<string, TConjunction[]>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * How `locale` joins two list items ('A and B', 'A e B', 'A和B', 'A وB', 'AและB'), from the
 * pair literal of `Intl.ListFormat`, spaces included, plus English 'and' (English-language
 * pages are served on many storefronts). Literals that are only separators ('、') are left
 * out: those are split on anyway.
 */
function conjunctions(locale: string | null): TConjunction[] {
  const key = locale ?? '';
  const cached = conjunctionCache.get(key);
  if (cached) return cached;
  const literals = new Set<string>([' and ']);
  if (locale) {
    try {
      const parts = new Intl.ListFormat(locale, { type: 'conjunction' }).formatToParts(['a', 'b']);
      for (const part of parts) if (part.type === 'literal') literals.add(part.value);
    } catch {
      // An unknown language tag: English 'and' only.
    }
  }
  const list: TConjunction[] = [];
  for (const literal of literals) {
    const word = literal.trim();
    if (word === '' || /^[\s,，、،;；]+$/u.test(word)) continue;
    const joint = literal
      .split(/(\s+)/u)
      .map((piece) => (/^\s+$/u.test(piece) ? '\\s+' : escapeRegExp(piece)))
      .join('');
    list.push({
      joint: new RegExp(joint, 'iu'),
      opening: /\s$/u.test(literal) ? new RegExp(`^${escapeRegExp(word)}\\s+(?=\\S)`, 'iu') : null,
    });
  }
  conjunctionCache.set(key, list);
  return list;
}

/**
 * Splits a product page's language list into names, in the page's order: at list separators
 * (`,` `、` `，` `،` `;`) and, in the last item only, at the page language's conjunction
 * ("English and French" -> ['English', 'French']; "Inglês e Português" with 'pt-BR'; "A, B,
 * and C" -> ['A', 'B', 'C']). Names are trimmed (U+00A0 and U+202F included); empty ones are
 * dropped. `locale` is the page's `<html lang>`; null uses English only.
 */
export function splitLanguageList(text: string, locale: string | null): string[] {
  const items = text
    .split(SEPARATORS)
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const last = items.pop();
  if (last === undefined) return [];
  for (const { joint, opening } of conjunctions(locale)) {
    // "English, French, and German": the conjunction opens the last item.
    if (opening?.test(last)) return [...items, last.replace(opening, '')];
    const match = joint.exec(last);
    if (!match) continue;
    const before = last.slice(0, match.index).trim();
    const after = last.slice(match.index + match[0].length).trim();
    if (before !== '' && after !== '') return [...items, before, after];
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
