/**
 * The main language of App Store storefronts: ISO 639-3 code (what `franc-min` detects and
 * `stopword` names its lists by), English name as the store lists languages, and the BCP 47
 * tag used to split words (`Intl.Segmenter`). Storefronts with several official languages
 * list the one most of the storefront's App Store pages use. Storefronts not listed here have
 * no main language for the rules (their language rules do not apply).
 */
export interface TStorefrontLanguage {
  iso3: string;
  name: string;
  tag: string;
}

const L = (iso3: string, name: string, tag: string): TStorefrontLanguage => ({ iso3, name, tag });
const EN = L('eng', 'English', 'en');
const ES = L('spa', 'Spanish', 'es');
const FR = L('fra', 'French', 'fr');
const DE = L('deu', 'German', 'de');
const PT = L('por', 'Portuguese', 'pt');
const AR = L('arb', 'Arabic', 'ar');
const ZH_HANS = L('cmn', 'Chinese', 'zh-Hans');
const ZH_HANT = L('cmn', 'Chinese', 'zh-Hant');
const RU = L('rus', 'Russian', 'ru');

const BY_STOREFRONT: Record<string, TStorefrontLanguage> = {
  us: EN,
  gb: EN,
  au: EN,
  ca: EN,
  nz: EN,
  ie: EN,
  in: EN,
  sg: EN,
  za: EN,
  ng: EN,
  ph: EN,
  mx: ES,
  es: ES,
  ar: ES,
  co: ES,
  cl: ES,
  pe: ES,
  ec: ES,
  uy: ES,
  ve: ES,
  gt: ES,
  cr: ES,
  fr: FR,
  be: FR,
  lu: FR,
  sn: FR,
  de: DE,
  at: DE,
  ch: DE,
  br: L('por', 'Portuguese', 'pt-BR'),
  pt: PT,
  it: L('ita', 'Italian', 'it'),
  nl: L('nld', 'Dutch', 'nl'),
  se: L('swe', 'Swedish', 'sv'),
  no: L('nob', 'Norwegian', 'nb'),
  dk: L('dan', 'Danish', 'da'),
  fi: L('fin', 'Finnish', 'fi'),
  pl: L('pol', 'Polish', 'pl'),
  cz: L('ces', 'Czech', 'cs'),
  sk: L('slk', 'Slovak', 'sk'),
  hu: L('hun', 'Hungarian', 'hu'),
  ro: L('ron', 'Romanian', 'ro'),
  bg: L('bul', 'Bulgarian', 'bg'),
  hr: L('hrv', 'Croatian', 'hr'),
  gr: L('ell', 'Greek', 'el'),
  tr: L('tur', 'Turkish', 'tr'),
  ru: RU,
  kz: RU,
  by: RU,
  ua: L('ukr', 'Ukrainian', 'uk'),
  il: L('heb', 'Hebrew', 'he'),
  sa: AR,
  ae: AR,
  eg: AR,
  qa: AR,
  kw: AR,
  jo: AR,
  ma: AR,
  jp: L('jpn', 'Japanese', 'ja'),
  kr: L('kor', 'Korean', 'ko'),
  cn: ZH_HANS,
  tw: ZH_HANT,
  hk: ZH_HANT,
  mo: ZH_HANT,
  th: L('tha', 'Thai', 'th'),
  vn: L('vie', 'Vietnamese', 'vi'),
  id: L('ind', 'Indonesian', 'id'),
  my: L('zlm', 'Malay', 'ms'),
};

/** The storefront's main language, or null when this table does not name one. */
export function storefrontLanguage(storefront: string): TStorefrontLanguage | null {
  return BY_STOREFRONT[storefront.toLowerCase()] ?? null;
}

/** The name of `language` in the language `inTag` (BCP 47), or null when the runtime has none. */
function nameIn(language: TStorefrontLanguage, inTag: string): string | null {
  try {
    const base = language.tag.split('-')[0]!;
    const name = new Intl.DisplayNames([inTag], { type: 'language' }).of(base);
    return name && name !== base ? name.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * True when `listed` is `language` as the store lists languages: in English from the lookup
 * API ('English', 'Chinese, Simplified', 'Norwegian Bokmål'), or in the product page's own
 * language (`pageLanguage`, e.g. 'ko': '한국어'; 'pt-BR': 'Português'), or in the language
 * itself ('日本語', '简体中文'). Names come from `Intl.DisplayNames`.
 */
export function isLanguage(
  listed: string,
  language: TStorefrontLanguage,
  pageLanguage?: string | null,
): boolean {
  const text = listed.toLowerCase();
  if (text.split(/[^\p{L}]+/u).includes(language.name.toLowerCase())) return true;
  const names = [
    nameIn(language, language.tag),
    pageLanguage ? nameIn(language, pageLanguage) : null,
  ];
  return names.some((name) => name !== null && text.includes(name));
}
