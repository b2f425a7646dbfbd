import { Parser } from 'htmlparser2';

/**
 * Numeric App Store storefront ids by two-letter code, sent as `X-Apple-Store-Front` to the
 * search hints endpoint, which answers nothing without it (facundoolano/aso#26). The ids are
 * Apple's, as listed by app-store-scraper (`lib/constants.js`, `markets`); a storefront not
 * listed is asked without the header, and an empty answer is shown as such.
 */
export const STOREFRONT_IDS: Readonly<Record<string, number>> = {
  ae: 143481,
  ai: 143538,
  am: 143524,
  ao: 143564,
  ar: 143505,
  at: 143445,
  au: 143460,
  az: 143568,
  bb: 143541,
  be: 143446,
  bg: 143526,
  bh: 143559,
  bm: 143542,
  bn: 143560,
  bo: 143556,
  br: 143503,
  bw: 143525,
  by: 143565,
  bz: 143555,
  ca: 143455,
  ch: 143459,
  cl: 143483,
  cn: 143465,
  co: 143501,
  cr: 143495,
  cy: 143557,
  cz: 143489,
  de: 143443,
  dk: 143458,
  dm: 143545,
  dz: 143563,
  ec: 143509,
  ee: 143518,
  eg: 143516,
  es: 143454,
  fi: 143447,
  fr: 143442,
  gb: 143444,
  gd: 143546,
  gh: 143573,
  gr: 143448,
  gt: 143504,
  gy: 143553,
  hk: 143463,
  hn: 143510,
  hr: 143494,
  hu: 143482,
  id: 143476,
  ie: 143449,
  il: 143491,
  in: 143467,
  is: 143558,
  it: 143450,
  jm: 143511,
  jo: 143528,
  jp: 143462,
  ke: 143529,
  kr: 143466,
  kw: 143493,
  ky: 143544,
  lb: 143497,
  lk: 143486,
  lt: 143520,
  lu: 143451,
  lv: 143519,
  mg: 143531,
  mk: 143530,
  ml: 143532,
  mo: 143515,
  ms: 143547,
  mt: 143521,
  mu: 143533,
  mx: 143468,
  my: 143473,
  ne: 143534,
  ng: 143561,
  ni: 143512,
  nl: 143452,
  no: 143457,
  np: 143484,
  nz: 143461,
  om: 143562,
  pa: 143485,
  pe: 143507,
  ph: 143474,
  pk: 143477,
  pl: 143478,
  pt: 143453,
  py: 143513,
  qa: 143498,
  ro: 143487,
  ru: 143469,
  sa: 143479,
  se: 143456,
  sg: 143464,
  si: 143499,
  sk: 143496,
  sn: 143535,
  sr: 143554,
  sv: 143506,
  th: 143475,
  tn: 143536,
  tr: 143480,
  tw: 143470,
  tz: 143572,
  ua: 143492,
  ug: 143537,
  us: 143441,
  uy: 143514,
  uz: 143566,
  ve: 143502,
  vg: 143543,
  vn: 143471,
  ye: 143571,
  za: 143472,
};

/** Hints one answer gives at most (the store sends about ten). */
const MAX_HINTS = 50;

/**
 * The suggested terms of a search hints answer, in the store's order: an XML property list
 * (`<plist><dict>... <key>hints</key><array><dict><key>term</key><string>music</string>
 * <key>priority</key><integer>...</integer>...</dict>...</array></dict></plist>`), read with
 * htmlparser2 in XML mode. Only the `term` strings of the dicts inside the `hints` array are
 * kept (the `title` 'Suggestions' and the `url`s are not terms); blank and repeated terms are
 * dropped; at most 50. Anything else (an empty body, JSON, HTML) gives no hints: the caller
 * shows them as empty rather than failing.
 */
export function parseSearchHints(text: string): string[] {
  const terms: string[] = [];
  const path: string[] = [];
  let lastKey: string | null = null;
  let inHints = false;
  let hintsDepth = -1;
  let buffer = '';
  let pendingKey: string | null = null;
  const parser = new Parser(
    {
      onopentag(name) {
        path.push(name);
        buffer = '';
        if (name === 'array' && lastKey === 'hints' && !inHints) {
          inHints = true;
          hintsDepth = path.length;
        }
        if (name === 'dict' && inHints) pendingKey = null;
      },
      ontext(chunk) {
        buffer += chunk;
      },
      onclosetag(name) {
        const value = buffer.trim();
        buffer = '';
        if (name === 'key') {
          lastKey = value;
          pendingKey = value;
        } else if (name === 'string' && inHints && pendingKey === 'term') {
          if (value !== '' && !terms.includes(value) && terms.length < MAX_HINTS) terms.push(value);
          pendingKey = null;
        } else if (name !== 'dict' && name !== 'array') {
          pendingKey = null;
        }
        if (name === 'array' && inHints && path.length === hintsDepth) inHints = false;
        path.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  return terms;
}
