import { DEVICE_CLASSES, graphemeCount, type TDeviceClass } from '@aso/contracts';
import { deviceClassOf } from './device-class.helpers';
import { languageNames, splitLanguageList } from './language-list.helpers';
import { asArray, asRecord, cleanText } from './text.helpers';

/**
 * The Information shelf of the 2025 product page (`shelfMapping.information.items[]`, rows of
 * `$kind: "Annotation"`), read by the structure of its rows. Apple localises every row title
 * (카테고리 / 類別 / Categoria / Seller / Age Classification ...) and changes the row set and
 * order per storefront (fixtures LAYOUTS.md), so a row's kind comes from its shape: the
 * in-app purchase row has text pairs, the age rating row an encapsulated text or no items,
 * the compatibility row device headings, the languages row a list its summary abbreviates, the
 * size row a number and a unit, the copyright row a ©, the provider row the developer's name,
 * and the category row is the short text next to the size and compatibility rows. Titles are
 * consulted only when the shape leaves a kind undecided (see {@link ROW_TITLES}).
 */

/** One line of a row: an optional heading (a device name, '名称或姓名', ...) and its text. */
export interface TInfoEntry {
  heading: string | null;
  text: string;
}

/** One Information row, normalised from the legacy `items` and the newer `items_V3`. */
export interface TInfoRow {
  index: number;
  title: string | null;
  summary: string | null;
  entries: TInfoEntry[];
  /** `textPairs` / `$kind: "textPair"` items: [name, price] of in-app purchases. */
  pairs: Array<[string, string]>;
  /** Text of the first `$kind: "textEncapsulation"` item (the age rating badge). */
  encapsulated: string | null;
  /** The legacy `items` is present and empty (the age rating row's shape). */
  emptyItems: boolean;
  /** The row links to a store story (`page: "article"`) from the row itself. */
  rowLink: boolean;
  /** An `$kind: "artwork"` item (a rating authority's badge, e.g. Brazil's ClassInd). */
  artwork: boolean;
  /** Some action or URL of the row leads to a genre page (`/genre/`). */
  genreLink: boolean;
  /** Some URL of the row leads off the App Store (a developer website, a privacy policy). */
  externalLink: boolean;
}

/** Kinds of Information rows the listing reads. */
export type TInfoRowKind =
  | 'provider'
  | 'size'
  | 'category'
  | 'compatibility'
  | 'languages'
  | 'ageRating'
  | 'inAppPurchases'
  | 'copyright';

/** The rows found per kind, and the values the listing takes from them. */
export interface TInformationShelf {
  rows: TInfoRow[];
  kinds: Partial<Record<TInfoRowKind, TInfoRow>>;
  category: string | null;
  languages: string[] | null;
  ageRating: string | null;
  /** Download size in bytes from the size row ('142.3 MB' -> 142,300,000); null without one. */
  fileSizeBytes: number | null;
  /** Device classes the compatibility row lists, in `DEVICE_CLASSES` order; [] without one. */
  supportedDevices: TDeviceClass[];
  /** Lowest iOS version the compatibility row names ('15.4'); null when it names none. */
  minimumOsVersion: string | null;
}

/** What the shelf is read with: the page language and what other places name. */
export interface TInformationContext {
  /** The page's `<html lang>`. */
  locale: string | null;
  /** Developer names from the page's identity fields (`developerAction.title`, ...). */
  developerNames: string[];
  /** Category names from other sources (JSON-LD, lookup), matched case-insensitively. */
  categoryHints: string[];
}

// Apple's device names are product names: the same on every storefront.
const DEVICE_HEADING =
  /^(iPhone|iPad|iPod touch|Mac|Apple Watch|Apple Vision|Apple Vision Pro|Apple TV|Vision Pro)$/i;
// '142.3 MB', '142,3 MB', '1.2 GB', '980 KB', '48,2 Mo', '1,1 ГБ': digits and a short unit.
const SIZE_TEXT = /^\p{Nd}[\p{Nd}.,\s\u00a0\u202f]*\s?[\p{L}.]{1,4}$/u;
// '4+', '12+', '17 +'.
const AGE_TEXT = /^\p{Nd}{1,2}\s?\+$/u;
// A sentence (the location and privacy notes) ends like one.
const SENTENCE_END = /[.!?。！？]$/u;
const MAX_CATEGORY_GRAPHEMES = 40;

/**
 * Last resort when a row's shape does not decide its kind: row titles Apple uses, per language
 * (lower case). The common storefronts are read by shape; this only rescues pages whose shape
 * changed.
 */
export const ROW_TITLES: Record<'provider' | 'category' | 'languages' | 'ageRating', string[]> = {
  provider: [
    'provider', 'seller', 'developer', 'anbieter', 'fournisseur', 'vendeur', 'proveedor',
    'vendedor', 'fornitore', 'venditore', 'venda', 'fornecedor', '販売元', '제공자', '供应商',
    '供應商', '提供者', 'провайдер', 'продавец', 'sağlayıcı', 'satıcı', 'aanbieder',
  ],
  category: [
    'category', 'kategorie', 'catégorie', 'categoría', 'categoria', 'カテゴリ', '카테고리', '类别',
    '類別', 'категория', 'kategori', 'categorie', 'kategoria',
  ],
  languages: [
    'languages', 'language', 'sprachen', 'sprache', 'langues', 'langue', 'idiomas', 'idioma',
    'lingue', 'lingua', '言語', '언어', '语言', '語言', 'языки', 'язык', 'diller', 'dil', 'talen',
    'bahasa', 'języki',
  ],
  ageRating: [
    'age rating', 'age classification', 'altersfreigabe', 'classification', 'âge', 'edad',
    'clasificación por edad', 'età', 'idade', 'classificação etária', '年齢制限', '연령 등급',
    '年龄分级', '年齡分級', 'возраст', 'yaş sınırı', 'leeftijd', 'rating usia',
  ],
}; // prettier-ignore

type TRecord = Record<string, unknown>;

/** `**Heading**\ntext` (the markdown of `items_V3` linkable texts) split in heading and text. */
function markdownEntry(raw: string): TInfoEntry | null {
  const match = /^\*\*(.+?)\*\*\s*\n([\s\S]*)$/u.exec(raw);
  const heading = match ? cleanText(match[1]) : null;
  const text = cleanText((match ? match[2]! : raw).replace(/\*\*/g, ''));
  return text ? { heading, text } : null;
}

/** The URLs and `$kind`s anywhere inside `node` (actions, destinations, links). */
function urlsAndKinds(node: unknown, found: { urls: string[]; kinds: string[] }, depth = 0) {
  if (depth > 8) return found;
  if (typeof node === 'string') {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(node)) found.urls.push(node);
  } else if (Array.isArray(node)) {
    for (const item of node) urlsAndKinds(item, found, depth + 1);
  } else {
    const record = asRecord(node);
    if (record) {
      if (typeof record.$kind === 'string') found.kinds.push(record.$kind);
      for (const value of Object.values(record)) urlsAndKinds(value, found, depth + 1);
    }
  }
  return found;
}

const STORE_URL = /^https?:\/\/(apps|itunes)\.apple\.com\//i;

function isArticleAction(action: unknown): boolean {
  const a = asRecord(action);
  return (
    a?.page === 'article' || (typeof a?.pageUrl === 'string' && /\/story\/id\d+/.test(a.pageUrl))
  );
}

/** Normalises one Annotation row. */
export function readInfoRow(item: unknown, index: number): TInfoRow | null {
  const row = asRecord(item);
  if (!row) return null;
  const items = row.items;
  const v3 = asArray(row.items_V3)
    .map(asRecord)
    .filter((r): r is TRecord => r !== null);
  const entries: TInfoEntry[] = [];
  const pairs: Array<[string, string]> = [];
  for (const entry of asArray(items)) {
    const e = asRecord(entry);
    for (const pair of asArray(e?.textPairs)) {
      const [name, price] = asArray(pair).map(cleanText);
      if (name && price) pairs.push([name, price]);
    }
    const text = cleanText(e?.text);
    if (text) entries.push({ heading: cleanText(e?.heading), text });
  }
  for (const entry of v3) {
    if (entry.$kind === 'textPair' && pairs.length === 0) {
      const name = cleanText(entry.leadingText);
      const price = cleanText(entry.trailingText);
      if (name && price) pairs.push([name, price]);
    }
  }
  // The newer items_V3 carries the same lines as markdown; read it when `items` gives none.
  if (entries.length === 0 && !(Array.isArray(items) && items.length === 0)) {
    for (const entry of v3) {
      const styled = asRecord(asRecord(entry.linkableText)?.styledText);
      const raw = typeof styled?.rawText === 'string' ? styled.rawText : null;
      const parsed = raw ? markdownEntry(raw) : null;
      if (parsed) entries.push(parsed);
    }
  }
  const links = urlsAndKinds(row, { urls: [], kinds: [] });
  const encapsulated =
    v3.map((e) => (e.$kind === 'textEncapsulation' ? cleanText(e.text) : null)).find(Boolean) ??
    null;
  return {
    index,
    title: cleanText(row.title),
    summary: cleanText(row.summary),
    entries,
    pairs,
    encapsulated,
    emptyItems: Array.isArray(items) && items.length === 0,
    rowLink: isArticleAction(row.linkAction),
    artwork: v3.some((e) => e.$kind === 'artwork'),
    genreLink:
      links.urls.some((u) => STORE_URL.test(u) && /\/genre\//.test(u)) ||
      links.kinds.some((k) => /genre/i.test(k)),
    externalLink: links.urls.some((u) => /^https?:/i.test(u) && !STORE_URL.test(u)),
  };
}

const lower = (text: string) => text.toLocaleLowerCase();

function singleText(row: TInfoRow): string | null {
  if (row.entries.length !== 1 || row.pairs.length > 0) return null;
  const [entry] = row.entries;
  return entry && entry.heading === null ? entry.text : null;
}

/** The row's language list, when its shape says it is one (see the module comment). */
function languageList(row: TInfoRow, locale: string | null): string[] | null {
  const text = singleText(row);
  if (!text || row.encapsulated) return null;
  const list = splitLanguageList(text, locale);
  if (list.length === 0) return null;
  // "English and 10 more" / "한국어 외 10개" / "繁體中文和其他10種": the summary abbreviates the
  // list it stands for, naming its first language.
  if (row.summary && row.summary !== text && list.length >= 2) {
    if (lower(row.summary).includes(lower(list[0]!))) return list;
  }
  const names = languageNames(locale);
  const known = list.filter((name) => names.has(lower(name))).length;
  return known > 0 && known * 2 >= list.length && list.every((n) => !SENTENCE_END.test(n))
    ? list
    : null;
}

/** The kind a row's shape alone decides, or null (languages and category need more). */
function shapeKind(row: TInfoRow, developers: ReadonlySet<string>): TInfoRowKind | null {
  const text = singleText(row);
  if (row.pairs.length > 0) return 'inAppPurchases';
  if (
    row.encapsulated !== null ||
    (row.emptyItems && row.summary !== null && (row.rowLink || row.artwork)) ||
    (text !== null && AGE_TEXT.test(text))
  ) {
    return 'ageRating';
  }
  if (row.entries.some((e) => e.heading !== null && DEVICE_HEADING.test(e.heading))) {
    return 'compatibility';
  }
  if (text === null) return null;
  if (/^(©|\(c\)|℗)/iu.test(text)) return 'copyright';
  if (SIZE_TEXT.test(text)) return 'size';
  if (developers.has(lower(text))) return 'provider';
  return null;
}

// Unit letters of the size row, Latin and Cyrillic ('KB', 'Mo', 'ГБ'), as powers of 1000:
// Apple reports storage in decimal units (https://support.apple.com/en-us/102119).
const SIZE_UNITS: Record<string, number> = { k: 1e3, к: 1e3, m: 1e6, м: 1e6, g: 1e9, г: 1e9 };

/**
 * Bytes of a size row's text: '142.3 MB' -> 142,300,000, '48,2 Mo' -> 48,200,000,
 * '1.1 ГБ' -> 1,100,000,000, '980 KB' -> 980,000. A separator followed by three digits groups
 * thousands ('1,024 MB'), by one or two it is the decimal mark. Null when the text is not a
 * number and a known unit.
 */
export function parseSizeText(text: string): number | null {
  const match = /^([\p{Nd}.,\s\u00a0\u202f]+?)\s?([\p{L}.]{1,4})$/u.exec(text.trim());
  if (!match) return null;
  const unit = SIZE_UNITS[match[2]!.toLocaleLowerCase().charAt(0)];
  if (unit === undefined) return null;
  let digits = match[1]!.replace(/[\s\u00a0\u202f]/gu, '');
  const lastMark = Math.max(digits.lastIndexOf('.'), digits.lastIndexOf(','));
  const decimals = lastMark === -1 ? 3 : digits.length - lastMark - 1;
  if (lastMark !== -1 && decimals < 3) {
    digits = `${digits.slice(0, lastMark).replace(/[.,]/g, '')}.${digits.slice(lastMark + 1)}`;
  } else {
    digits = digits.replace(/[.,]/g, '');
  }
  const value = Number(digits);
  return Number.isFinite(value) ? Math.round(value * unit) : null;
}

// Apple's operating system names, the same on every storefront.
const OS_DEVICE: ReadonlyArray<[RegExp, TDeviceClass]> = [
  [/\biOS\b/, 'iphone'],
  [/\biPadOS\b/, 'ipad'],
  [/\bmacOS\b/, 'mac'],
  [/\bwatchOS\b/, 'watch'],
  [/\btvOS\b/, 'tv'],
  [/\bvisionOS\b/, 'vision'],
];

/**
 * What the compatibility row says: the device classes it lists (from its device headings, or
 * the operating systems its lines name when they have none) and the lowest iOS version it
 * names, read from the iPhone line first ('Requires iOS 15.4 or later.', 'iOS 15.4 이상 필요').
 */
function compatibility(row: TInfoRow | undefined): {
  supportedDevices: TDeviceClass[];
  minimumOsVersion: string | null;
} {
  if (!row) return { supportedDevices: [], minimumOsVersion: null };
  const found = new Set<TDeviceClass>();
  for (const entry of row.entries) {
    const byHeading = entry.heading ? deviceClassOf(entry.heading.replace(/\s+/g, '')) : null;
    if (byHeading) found.add(byHeading);
    else if (entry.heading === null || /^iPod/i.test(entry.heading)) {
      for (const [os, device] of OS_DEVICE) if (os.test(entry.text)) found.add(device);
    }
  }
  const texts = [...row.entries]
    .sort((a, b) => Number(b.heading === 'iPhone') - Number(a.heading === 'iPhone'))
    .map((e) => e.text);
  const version = texts
    .map((t) => /\biOS\s*(\p{Nd}+(?:\.\p{Nd}+){0,2})/u.exec(t)?.[1])
    .find((v) => v !== undefined);
  return {
    supportedDevices: DEVICE_CLASSES.filter((d) => found.has(d)),
    minimumOsVersion: version ?? null,
  };
}

function titleIs(row: TInfoRow, kind: keyof typeof ROW_TITLES): boolean {
  return row.title !== null && ROW_TITLES[kind].includes(lower(row.title));
}

/**
 * Reads the Information shelf (`shelfMapping.information`) by row structure. Returns the rows,
 * the row found per kind and the category, language list (split per the page's locale) and age
 * rating as the storefront shows them; a value is null when no row of its kind was found.
 */
export function readInformationShelf(
  shelf: unknown,
  context: TInformationContext,
): TInformationShelf {
  const rows = asArray(asRecord(shelf)?.items)
    .map((item, i) => readInfoRow(item, i))
    .filter((r): r is TInfoRow => r !== null);
  const kinds: Partial<Record<TInfoRowKind, TInfoRow>> = {};
  const claim = (kind: TInfoRowKind, row: TInfoRow) => {
    if (!kinds[kind]) kinds[kind] = row;
  };
  const developers = new Set(context.developerNames.map(lower));
  const claimed = new Set<TInfoRow>();
  let languages: string[] | null = null;

  for (const row of rows) {
    const kind = shapeKind(row, developers);
    if (kind) {
      claim(kind, row);
      claimed.add(row);
      continue;
    }
    const list = kinds.languages ? null : languageList(row, context.locale);
    if (list) {
      claim('languages', row);
      claimed.add(row);
      languages = list;
    }
  }

  // The category: a short single text on no other row.
  const candidates = rows.filter((row) => {
    const text = singleText(row);
    return (
      text !== null &&
      !claimed.has(row) &&
      row.encapsulated === null &&
      !row.externalLink &&
      (row.summary === null || row.summary === text) &&
      graphemeCount(text) <= MAX_CATEGORY_GRAPHEMES &&
      !SENTENCE_END.test(text)
    );
  });
  const hints = new Set(context.categoryHints.map(lower));
  const next = (anchor: TInfoRow | undefined, offset: number) =>
    anchor ? candidates.find((r) => r.index === anchor.index + offset) : undefined;
  const category =
    candidates.find((r) => r.genreLink) ??
    candidates.find((r) => hints.has(lower(singleText(r)!))) ??
    next(kinds.compatibility, -1) ??
    next(kinds.size, 1) ??
    candidates.find((r) => titleIs(r, 'category')) ??
    (candidates.length === 1 ? candidates[0] : undefined);
  if (category) claim('category', category);

  // Last resort: titles, for kinds whose shape was not recognised.
  if (!kinds.languages) {
    const row = rows.find((r) => !claimed.has(r) && r !== category && titleIs(r, 'languages'));
    const text = row ? singleText(row) : null;
    if (row && text) {
      claim('languages', row);
      languages = splitLanguageList(text, context.locale);
    }
  }
  if (!kinds.ageRating) {
    const row = rows.find((r) => !claimed.has(r) && titleIs(r, 'ageRating'));
    if (row && (row.summary ?? singleText(row))) claim('ageRating', row);
  }
  if (!kinds.provider) {
    const row = rows.find((r) => !claimed.has(r) && r !== category && titleIs(r, 'provider'));
    if (row && singleText(row)) claim('provider', row);
  }

  const age = kinds.ageRating;
  const size = kinds.size ? singleText(kinds.size) : null;
  return {
    rows,
    kinds,
    category: category ? singleText(category) : null,
    languages: kinds.languages ? languages : null,
    ageRating: age ? (age.encapsulated ?? age.summary ?? singleText(age)) : null,
    fileSizeBytes: size ? parseSizeText(size) : null,
    ...compatibility(kinds.compatibility),
  };
}
