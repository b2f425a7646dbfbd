import type { TSectionAnalysis } from '@aso/contracts';
import { KEYWORD_FIELD_MAX_BYTES, SUBTITLE_MAX_CHARS, TITLE_MAX_CHARS } from './limits.constants';
import {
  charCount,
  clampScore,
  keywordWords,
  listText,
  plural,
  singular,
  uniqueWords,
  utf8Bytes,
  words,
} from './text.rules';

/** Length of a text field against its limit. `usagePct` is percent 0-100 of the limit used (capped at 100). */
export interface TLengthCheck {
  used: number;
  limit: number;
  withinLimit: boolean;
  usagePct: number;
}

/** Measures `text` in characters (code points) against `limit` characters. */
export function checkCharLimit(text: string, limit: number): TLengthCheck {
  const used = charCount(text);
  return {
    used,
    limit,
    withinLimit: used <= limit,
    usagePct: Math.min(100, Math.round((used / limit) * 100)),
  };
}

/**
 * Title (app name) check. Rule: at most 30 characters (spec sections 5 and 9; App Store
 * Connect Help, App information). Using most of the 30 characters matters because the name
 * carries the most search weight of all indexed fields.
 */
export function checkTitle(title: string): TLengthCheck {
  return checkCharLimit(title.trim(), TITLE_MAX_CHARS);
}

/** Subtitle check: at most 30 characters (spec sections 5 and 9; App Store Connect Help, App information). */
export function checkSubtitle(subtitle: string | null): TLengthCheck {
  return checkCharLimit((subtitle ?? '').trim(), SUBTITLE_MAX_CHARS);
}

/**
 * Words of the subtitle that the title already has (compared in singular form). Apple indexes
 * the title and subtitle together, so a repeated word spends subtitle characters on nothing
 * (DESIGN section 2: duplicates across fields).
 */
export function wordsRepeatedInSubtitle(title: string, subtitle: string | null): string[] {
  const inTitle = new Set(keywordWords(title).map(singular));
  return uniqueWords(keywordWords(subtitle ?? '').filter((w) => inTitle.has(singular(w))));
}

/** The user's keyword text split into terms: by commas when it has any, else by whitespace. */
export function keywordTerms(text: string): string[] {
  const t = text.trim();
  if (t === '') return [];
  const parts = t.includes(',') ? t.split(',') : t.split(/\s+/);
  return parts.map((p) => p.trim().toLowerCase()).filter((p) => p !== '');
}

/** Result of {@link checkKeywordField}. */
export interface TKeywordFieldCheck {
  /** False when the user entered no keyword text: nothing below is judged then. */
  entered: boolean;
  /** UTF-8 bytes used and the 100-byte limit. */
  bytes: number;
  limit: number;
  withinLimit: boolean;
  /** Percent 0-100 of the 100 bytes used (capped at 100). */
  usagePct: number;
  terms: string[];
  /** 'comma' when terms are comma-separated, 'space' when only spaces separate them. */
  separator: 'comma' | 'space' | 'none';
  /** True when a space follows or precedes a comma (each such space costs a byte). */
  spacesAroundCommas: boolean;
  /** Field words already in the title or subtitle (singular forms compared). */
  repeatedFromTitleOrSubtitle: string[];
  /** Words that appear more than once in the field. */
  duplicates: string[];
  /** Pairs of different words with the same singular form, e.g. ['playlist', 'playlists']. */
  pluralDuplicates: Array<[string, string]>;
  /** Bytes that removing the spaces, repeats and duplicates above would free. */
  wastedBytes: number;
}

/**
 * Keyword field check, judged only on the text the user entered (the field is not public:
 * DESIGN section 2). Rules: at most 100 BYTES of UTF-8 (spec sections 5 and 9; App Store
 * Connect Help, Platform version information); terms separated by commas without spaces;
 * no word repeated from the title or subtitle, no duplicate words and no singular/plural pairs
 * (Apple's search already combines and matches those, so repeats waste bytes).
 */
export function checkKeywordField(
  text: string | null | undefined,
  title: string,
  subtitle: string | null,
): TKeywordFieldCheck {
  const raw = (text ?? '').trim();
  const bytes = utf8Bytes(raw);
  const base = {
    bytes,
    limit: KEYWORD_FIELD_MAX_BYTES,
    withinLimit: bytes <= KEYWORD_FIELD_MAX_BYTES,
    usagePct: Math.min(100, Math.round((bytes / KEYWORD_FIELD_MAX_BYTES) * 100)),
  };
  if (raw === '') {
    return {
      entered: false,
      ...base,
      terms: [],
      separator: 'none',
      spacesAroundCommas: false,
      repeatedFromTitleOrSubtitle: [],
      duplicates: [],
      pluralDuplicates: [],
      wastedBytes: 0,
    };
  }
  const terms = keywordTerms(raw);
  const separator = raw.includes(',') ? 'comma' : terms.length > 1 ? 'space' : 'none';
  const spaces = raw.match(/\s+,|,\s+/g) ?? [];
  const spacesAroundCommas = spaces.length > 0;
  const fieldWords = words(raw);

  const metadata = new Set([...keywordWords(title), ...keywordWords(subtitle ?? '')].map(singular));
  const repeated = uniqueWords(fieldWords.filter((w) => metadata.has(singular(w))));

  const seen = new Map<string, number>();
  for (const w of fieldWords) seen.set(w, (seen.get(w) ?? 0) + 1);
  const duplicates = [...seen.entries()].filter(([, n]) => n > 1).map(([w]) => w);

  const bySingular = new Map<string, string[]>();
  for (const w of seen.keys()) {
    const s = singular(w);
    bySingular.set(s, [...(bySingular.get(s) ?? []), w]);
  }
  const pluralDuplicates: Array<[string, string]> = [];
  for (const forms of bySingular.values()) {
    if (forms.length > 1) {
      const sorted = [...forms].sort((a, b) => a.length - b.length);
      for (const other of sorted.slice(1)) pluralDuplicates.push([sorted[0]!, other]);
    }
  }

  const wastedBytes =
    spaces.reduce((n, s) => n + utf8Bytes(s) - 1, 0) +
    repeated.reduce((n, w) => n + utf8Bytes(w) + 1, 0) +
    duplicates.reduce((n, w) => n + (utf8Bytes(w) + 1) * ((seen.get(w) ?? 1) - 1), 0) +
    pluralDuplicates.reduce((n, [, longer]) => n + utf8Bytes(longer) + 1, 0);

  return {
    entered: true,
    ...base,
    terms,
    separator,
    spacesAroundCommas,
    repeatedFromTitleOrSubtitle: repeated,
    duplicates,
    pluralDuplicates,
    wastedBytes,
  };
}

/** Result of {@link keywordCoverage}. `coveragePct` is percent 0-100 of the user's terms covered. */
export interface TKeywordCoverage {
  terms: string[];
  inTitle: string[];
  inSubtitle: string[];
  missing: string[];
  coveragePct: number;
}

/**
 * Which of the user's keyword terms the title or subtitle already carry (every word of the
 * term present, singular forms compared). Terms in the title rank best; terms in neither
 * field can only rank through the keyword field. Empty input gives 0 terms and 0 %.
 */
export function keywordCoverage(
  text: string | null | undefined,
  title: string,
  subtitle: string | null,
): TKeywordCoverage {
  const terms = keywordTerms(text ?? '');
  const titleWords = new Set(words(title).map(singular));
  const subtitleWords = new Set(words(subtitle ?? '').map(singular));
  const inTitle: string[] = [];
  const inSubtitle: string[] = [];
  const missing: string[] = [];
  for (const term of terms) {
    const ws = words(term).map(singular);
    if (ws.length === 0) continue;
    if (ws.every((w) => titleWords.has(w))) inTitle.push(term);
    else if (ws.every((w) => titleWords.has(w) || subtitleWords.has(w))) inSubtitle.push(term);
    else missing.push(term);
  }
  const covered = inTitle.length + inSubtitle.length;
  const total = covered + missing.length;
  return {
    terms,
    inTitle,
    inSubtitle,
    missing,
    coveragePct: total === 0 ? 0 : Math.round((covered / total) * 100),
  };
}

/** Score 0-100 of a 30-character field from its length check (shared by title and subtitle). */
function lengthScore(check: TLengthCheck): number {
  if (check.used === 0) return 0;
  if (!check.withinLimit) return 20;
  if (check.usagePct >= 80) return 100;
  if (check.usagePct >= 50) return 75;
  return 50;
}

/** Competitor metadata the title and subtitle sections compare with. */
export interface TCompetitorText {
  appName: string;
  subtitle: string | null;
}

/**
 * Words of the app's title and subtitle that competitors' titles and subtitles also use, per
 * competitor (stop words left out, singular forms compared).
 */
export function sharedMetadataWords(
  title: string,
  subtitle: string | null,
  competitors: readonly TCompetitorText[],
): Array<{ appName: string; shared: string[] }> {
  const mine = new Set(keywordWords(`${title} ${subtitle ?? ''}`).map(singular));
  return competitors.map((c) => ({
    appName: c.appName,
    shared: uniqueWords(keywordWords(`${c.appName} ${c.subtitle ?? ''}`).map(singular)).filter(
      (w) => mine.has(w),
    ),
  }));
}

/**
 * Title section (spec section 3 structuredAnalysis key `title`). Score: 0 empty, 20 over 30
 * characters, 100 when at least 80 % of the 30 characters are used, 75 from 50 %, else 50;
 * minus 15 when the user gave keywords and the title carries none of them. Confidence high
 * (everything is measured).
 */
export function titleSection(
  title: string,
  subtitle: string | null,
  userKeywords: string | null | undefined,
  competitors: readonly TCompetitorText[],
): TSectionAnalysis {
  const check = checkTitle(title);
  const coverage = keywordCoverage(userKeywords, title, subtitle);
  const improvements: string[] = [];
  const parts = [
    `The title "${title.trim()}" uses ${check.used} of ${check.limit} characters (${check.usagePct}%).`,
  ];
  let score = lengthScore(check);
  if (!check.withinLimit) {
    parts.push(
      `It is ${check.used - check.limit} characters over Apple's ${check.limit}-character limit.`,
    );
    improvements.push(
      `Shorten the title to at most ${check.limit} characters; App Store Connect refuses longer names.`,
    );
  } else if (check.usagePct < 80) {
    improvements.push(
      `Use the ${check.limit - check.used} unused characters for a high-value keyword (the title carries the most search weight).`,
    );
  }
  if (coverage.terms.length > 0) {
    if (coverage.inTitle.length > 0)
      parts.push(`It contains your keywords ${listText(coverage.inTitle.map((t) => `"${t}"`))}.`);
    else {
      score -= 15;
      parts.push('It contains none of the keywords you entered.');
      improvements.push(
        `Work your most important keyword ("${coverage.terms[0]!}") into the title.`,
      );
    }
  }
  const shared = sharedMetadataWords(title, subtitle, competitors).filter(
    (s) => s.shared.length > 0,
  );
  if (shared.length > 0) {
    parts.push(
      `Words shared with competitors: ${shared.map((s) => `${s.appName} (${s.shared.join(', ')})`).join('; ')}.`,
    );
  } else if (competitors.length > 0) {
    parts.push("Its words do not overlap with the competitors' titles and subtitles.");
  }
  return {
    analysis: parts.join(' '),
    improvements,
    score: clampScore(score),
    confidence: 'high',
    used: check.used,
    limit: check.limit,
  };
}

/**
 * Subtitle section. Score: 30 with no subtitle (30 indexed characters unused), else as the
 * title (see {@link titleSection}) minus 10 when it repeats title words. When no source could
 * read the subtitle (`unknown`, e.g. no product page) it is not judged: score 50, confidence
 * 'low'.
 */
export function subtitleSection(
  title: string,
  subtitle: string | null,
  userKeywords: string | null | undefined,
  unknown = false,
): TSectionAnalysis {
  const check = checkSubtitle(subtitle);
  if (unknown && !subtitle) {
    return {
      analysis:
        'The subtitle could not be read from the store (no product page was available), so it was not judged (low confidence).',
      improvements: [
        `Make sure the subtitle uses up to ${check.limit} characters with keywords that are not in the title.`,
      ],
      score: 50,
      confidence: 'low',
      used: 0,
      limit: check.limit,
    };
  }
  if (!subtitle || check.used === 0) {
    return {
      analysis: `The app has no subtitle, so ${check.limit} indexed characters shown under the name are unused.`,
      improvements: [
        `Add a subtitle of up to ${check.limit} characters that states the main benefit with a keyword not in the title.`,
      ],
      score: 30,
      confidence: 'high',
      used: 0,
      limit: check.limit,
    };
  }
  const improvements: string[] = [];
  const parts = [
    `The subtitle "${subtitle.trim()}" uses ${check.used} of ${check.limit} characters (${check.usagePct}%).`,
  ];
  let score = lengthScore(check);
  if (!check.withinLimit) {
    parts.push(`It is ${check.used - check.limit} characters over the limit.`);
    improvements.push(`Shorten the subtitle to at most ${check.limit} characters.`);
  } else if (check.usagePct < 80) {
    improvements.push(`Use the ${check.limit - check.used} unused characters for another keyword.`);
  }
  const repeated = wordsRepeatedInSubtitle(title, subtitle);
  if (repeated.length > 0) {
    score -= 10;
    parts.push(`It repeats ${listText(repeated.map((w) => `"${w}"`))} from the title.`);
    improvements.push(
      'Replace words already in the title with new keywords; Apple indexes each word once.',
    );
  }
  const coverage = keywordCoverage(userKeywords, title, subtitle);
  if (coverage.inSubtitle.length > 0)
    parts.push(`It adds your keywords ${listText(coverage.inSubtitle.map((t) => `"${t}"`))}.`);
  return {
    analysis: parts.join(' '),
    improvements,
    score: clampScore(score),
    confidence: 'high',
    used: check.used,
    limit: check.limit,
  };
}

/**
 * Keyword field section, judged only on the user's text (see {@link checkKeywordField}).
 * With no text: score 50, confidence 'low', and the analysis says the field could not be
 * judged. Otherwise 100 minus: 40 over 100 bytes, 10 for spaces around commas or space
 * separation, 5 per word repeated from title/subtitle (at most 25), 5 per duplicate (at most
 * 20), 5 per plural pair (at most 15), 10 when under 80 % of the bytes are used; confidence
 * 'medium' (the text may differ from what App Store Connect holds).
 */
export function keywordsSection(
  userKeywords: string | null | undefined,
  title: string,
  subtitle: string | null,
): TSectionAnalysis {
  const c = checkKeywordField(userKeywords, title, subtitle);
  if (!c.entered) {
    return {
      analysis:
        'The keyword field is not public, and no keyword text was entered, so it could not be judged (low confidence). Enter your keyword field to check its 100-byte limit, separators and repeats.',
      improvements: [
        `Fill the keyword field up to ${c.limit} bytes with comma-separated terms (no spaces) that are not already in the title or subtitle.`,
      ],
      score: 50,
      confidence: 'low',
      used: 0,
      limit: c.limit,
    };
  }
  const parts = [
    `Judged on the text you entered: ${plural(c.terms.length, 'term')} using ${c.bytes} of ${c.limit} bytes (${c.usagePct}%).`,
  ];
  const improvements: string[] = [];
  let score = 100;
  if (!c.withinLimit) {
    score -= 40;
    parts.push(
      `It is ${c.bytes - c.limit} bytes over the limit (multi-byte letters count 2-4 bytes each).`,
    );
    improvements.push(
      `Cut the keyword field to ${c.limit} bytes; App Store Connect refuses longer text.`,
    );
  } else if (c.usagePct < 80) {
    score -= 10;
    improvements.push(`Use the remaining ${c.limit - c.bytes} bytes for more terms.`);
  }
  if (c.separator === 'space') {
    score -= 10;
    parts.push('Terms are separated by spaces instead of commas.');
    improvements.push('Separate terms with commas and no spaces (e.g. "music,podcast,radio").');
  } else if (c.spacesAroundCommas) {
    score -= 10;
    parts.push('There are spaces around commas.');
    improvements.push('Remove the spaces after commas; each one costs a byte.');
  }
  if (c.repeatedFromTitleOrSubtitle.length > 0) {
    score -= Math.min(25, 5 * c.repeatedFromTitleOrSubtitle.length);
    parts.push(
      `Words already in the title or subtitle: ${c.repeatedFromTitleOrSubtitle.join(', ')}.`,
    );
    improvements.push(
      'Remove words that the title or subtitle already carry; Apple indexes them already.',
    );
  }
  if (c.duplicates.length > 0) {
    score -= Math.min(20, 5 * c.duplicates.length);
    parts.push(`Repeated words: ${c.duplicates.join(', ')}.`);
    improvements.push('Keep each word once.');
  }
  if (c.pluralDuplicates.length > 0) {
    score -= Math.min(15, 5 * c.pluralDuplicates.length);
    parts.push(
      `Singular and plural of the same word: ${c.pluralDuplicates.map(([a, b]) => `${a}/${b}`).join(', ')}.`,
    );
    improvements.push('Keep only one form of each word; Apple matches singular and plural.');
  }
  if (c.wastedBytes > 0) parts.push(`About ${c.wastedBytes} bytes could be freed.`);
  return {
    analysis: parts.join(' '),
    improvements,
    score: clampScore(score),
    confidence: 'medium',
    used: c.bytes,
    limit: c.limit,
  };
}
