import type { TRuleOutcome, TSectionAnalysis } from '@aso/contracts';
import {
  failed,
  notApplicable,
  passed,
  ruleById,
  scoreOf,
  notJudgedSection,
} from './rules.catalogue';
import { KEYWORD_FIELD_MAX_BYTES, SUBTITLE_MAX_CHARS, TITLE_MAX_CHARS } from './limits.constants';
import {
  charCount,
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
  /**
   * Bytes that removing the spaces around commas, the words of the title and subtitle, the
   * repeated words and the longer form of singular/plural pairs would free: `bytes` minus the
   * size of that cleaned field, so never more than `bytes`.
   */
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

  const wastedBytes = Math.max(0, bytes - utf8Bytes(cleanedKeywordField(raw, metadata)));

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

/**
 * The keyword field with the waste removed: terms trimmed and joined by bare commas, words
 * whose singular form is in `metadata` dropped, each word (and each singular form) kept once;
 * terms left empty are dropped.
 */
export function cleanedKeywordField(raw: string, metadata: ReadonlySet<string>): string {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const term of keywordTerms(raw)) {
    const kept = words(term).filter((w) => {
      const s = singular(w);
      if (metadata.has(s) || seen.has(s)) return false;
      seen.add(s);
      return true;
    });
    if (kept.length > 0) terms.push(kept.join(' '));
  }
  return terms.join(',');
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

/**
 * Points a 30-character field loses for unused characters: 0 from 80 % used, 25 from 50 %,
 * else 50.
 */
function usagePoints(check: TLengthCheck): number {
  if (check.usagePct >= 80) return 0;
  return check.usagePct >= 50 ? 25 : 50;
}

/** The `*.length-usage` outcome of a 30-character field. */
function usageOutcome(id: string, label: string, check: TLengthCheck): TRuleOutcome {
  const facts = { used: check.used, limit: check.limit, usagePct: check.usagePct };
  const points = usagePoints(check);
  return points === 0
    ? passed(id, `${label} uses ${check.usagePct}% of its ${check.limit} characters.`, facts)
    : failed(
        id,
        `${label} uses ${check.usagePct}% of its ${check.limit} characters.`,
        facts,
        points,
      );
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
 * Title section (structuredAnalysis key `title`), rules `title.*` of the catalogue: present,
 * within 30 characters, using at least 80 % of them, and carrying one of the user's keywords.
 * Confidence high (everything is measured).
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
  const facts = { used: check.used, limit: check.limit };
  const rules: TRuleOutcome[] = [];
  if (check.used === 0) {
    rules.push(failed('title.present', 'The listing shows no name.', facts));
    for (const id of ['title.length-limit', 'title.length-usage', 'title.user-keywords'])
      rules.push(notApplicable(id, 'There is no name.'));
    return {
      analysis: 'No app name could be read from the listing.',
      improvements: ['Set the app name in App Store Connect.'],
      score: scoreOf(rules),
      confidence: 'high',
      used: 0,
      limit: check.limit,
      rules,
      textSource: 'rules',
    };
  }
  rules.push(passed('title.present', `The name is "${title.trim()}".`, facts));
  const parts = [
    `The title "${title.trim()}" uses ${check.used} of ${check.limit} characters (${check.usagePct}%).`,
  ];
  if (!check.withinLimit) {
    rules.push(
      failed('title.length-limit', `${check.used - check.limit} characters over the limit.`, facts),
    );
    parts.push(
      `It is ${check.used - check.limit} characters over Apple's ${check.limit}-character limit.`,
    );
    improvements.push(
      `Shorten the title to at most ${check.limit} characters; App Store Connect refuses longer names.`,
    );
  } else {
    rules.push(passed('title.length-limit', `Within ${check.limit} characters.`, facts));
    rules.push(usageOutcome('title.length-usage', 'The name', check));
    if (check.usagePct < 80)
      improvements.push(
        `Use the ${check.limit - check.used} unused characters for a high-value keyword (the title carries the most search weight).`,
      );
  }
  if (coverage.terms.length === 0) {
    rules.push(notApplicable('title.user-keywords', 'No keywords were entered.'));
  } else if (coverage.inTitle.length > 0) {
    rules.push(
      passed('title.user-keywords', `Contains ${listText(coverage.inTitle)}.`, {
        keywords: coverage.terms.join(','),
      }),
    );
    parts.push(`It contains your keywords ${listText(coverage.inTitle.map((t) => `"${t}"`))}.`);
  } else {
    rules.push(
      failed('title.user-keywords', 'Contains none of the keywords entered.', {
        keywords: coverage.terms.join(','),
      }),
    );
    parts.push('It contains none of the keywords you entered.');
    improvements.push(`Work your most important keyword ("${coverage.terms[0]!}") into the title.`);
  }
  const shared = sharedMetadataWords(title, subtitle, competitors).filter(
    (x) => x.shared.length > 0,
  );
  if (shared.length > 0) {
    parts.push(
      `Words shared with competitors: ${shared.map((x) => `${x.appName} (${x.shared.join(', ')})`).join('; ')}.`,
    );
  } else if (competitors.length > 0) {
    parts.push("Its words do not overlap with the competitors' titles and subtitles.");
  }
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: 'high',
    used: check.used,
    limit: check.limit,
    rules,
    textSource: 'rules',
  };
}

/**
 * Subtitle section, rules `subtitle.*`: present, within 30 characters, using at least 80 % of
 * them, repeating no title word. When no source could read the subtitle (`unreadable` gives
 * why, see {@link unreadableWhy}) it is not judged (score null).
 */
export function subtitleSection(
  title: string,
  subtitle: string | null,
  userKeywords: string | null | undefined,
  unreadable: string | null = null,
): TSectionAnalysis {
  const check = checkSubtitle(subtitle);
  if (unreadable !== null && !subtitle) {
    return notJudgedSection(
      'subtitle',
      `Not judged: the subtitle could not be read from the store (${unreadable}).`,
      'The subtitle could not be read.',
      {
        improvements: [
          `Make sure the subtitle uses up to ${check.limit} characters with keywords that are not in the title.`,
        ],
        used: 0,
        limit: check.limit,
      },
    );
  }
  const facts = { used: check.used, limit: check.limit };
  if (!subtitle || check.used === 0) {
    const rules = [
      failed('subtitle.present', 'The listing shows no subtitle.', facts),
      ...['subtitle.length-limit', 'subtitle.length-usage', 'subtitle.no-title-repeats'].map((id) =>
        notApplicable(id, 'There is no subtitle.'),
      ),
    ];
    return {
      analysis: `The app has no subtitle, so ${check.limit} indexed characters shown under the name are unused.`,
      improvements: [
        `Add a subtitle of up to ${check.limit} characters that states the main benefit with a keyword not in the title.`,
      ],
      score: scoreOf(rules),
      confidence: 'high',
      used: 0,
      limit: check.limit,
      rules,
      textSource: 'rules',
    };
  }
  const rules: TRuleOutcome[] = [passed('subtitle.present', `"${subtitle.trim()}".`, facts)];
  const improvements: string[] = [];
  const parts = [
    `The subtitle "${subtitle.trim()}" uses ${check.used} of ${check.limit} characters (${check.usagePct}%).`,
  ];
  if (!check.withinLimit) {
    rules.push(
      failed(
        'subtitle.length-limit',
        `${check.used - check.limit} characters over the limit.`,
        facts,
      ),
    );
    parts.push(`It is ${check.used - check.limit} characters over the limit.`);
    improvements.push(`Shorten the subtitle to at most ${check.limit} characters.`);
  } else {
    rules.push(passed('subtitle.length-limit', `Within ${check.limit} characters.`, facts));
    rules.push(usageOutcome('subtitle.length-usage', 'The subtitle', check));
    if (check.usagePct < 80)
      improvements.push(
        `Use the ${check.limit - check.used} unused characters for another keyword.`,
      );
  }
  const repeated = wordsRepeatedInSubtitle(title, subtitle);
  if (repeated.length > 0) {
    rules.push(
      failed('subtitle.no-title-repeats', `Repeats ${listText(repeated)}.`, {
        repeated: repeated.join(', '),
      }),
    );
    parts.push(`It repeats ${listText(repeated.map((w) => `"${w}"`))} from the title.`);
    improvements.push(
      'Replace words already in the title with new keywords; Apple indexes each word once.',
    );
  } else {
    rules.push(passed('subtitle.no-title-repeats', 'No word of the name is repeated.'));
  }
  const coverage = keywordCoverage(userKeywords, title, subtitle);
  if (coverage.inSubtitle.length > 0)
    parts.push(`It adds your keywords ${listText(coverage.inSubtitle.map((t) => `"${t}"`))}.`);
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: 'high',
    used: check.used,
    limit: check.limit,
    rules,
    textSource: 'rules',
  };
}

/**
 * Keyword field section, rules `keywords.*`, judged only on the user's text (see
 * {@link checkKeywordField}); confidence 'medium' (the text may differ from what App Store
 * Connect holds). With no text it is not judged (score null): the field is not public.
 */
export function keywordsSection(
  userKeywords: string | null | undefined,
  title: string,
  subtitle: string | null,
): TSectionAnalysis {
  const c = checkKeywordField(userKeywords, title, subtitle);
  if (!c.entered) {
    return notJudgedSection(
      'keywords',
      'Not judged: the keyword field is not public and no keyword text was entered. Enter your keyword field to check its 100-byte limit, separators and repeats.',
      'No keyword text was entered.',
      {
        improvements: [
          `Fill the keyword field up to ${c.limit} bytes with comma-separated terms (no spaces) that are not already in the title or subtitle.`,
        ],
        used: 0,
        limit: c.limit,
      },
    );
  }
  const facts = { bytes: c.bytes, limit: c.limit };
  const rules: TRuleOutcome[] = [];
  const parts = [
    `Judged on the text you entered: ${plural(c.terms.length, 'term')} using ${c.bytes} of ${c.limit} bytes (${c.usagePct}%).`,
  ];
  const improvements: string[] = [];
  if (!c.withinLimit) {
    rules.push(failed('keywords.byte-limit', `${c.bytes - c.limit} bytes over the limit.`, facts));
    rules.push(notApplicable('keywords.byte-usage', 'The field is over the limit.'));
    parts.push(
      `It is ${c.bytes - c.limit} bytes over the limit (multi-byte letters count 2-4 bytes each).`,
    );
    improvements.push(
      `Cut the keyword field to ${c.limit} bytes; App Store Connect refuses longer text.`,
    );
  } else {
    rules.push(passed('keywords.byte-limit', `Within ${c.limit} bytes.`, facts));
    if (c.usagePct < 80) {
      rules.push(failed('keywords.byte-usage', `${c.usagePct}% of the bytes used.`, facts));
      improvements.push(`Use the remaining ${c.limit - c.bytes} bytes for more terms.`);
    } else rules.push(passed('keywords.byte-usage', `${c.usagePct}% of the bytes used.`, facts));
  }
  if (c.separator === 'space') {
    rules.push(failed('keywords.separators', 'Terms are separated by spaces.'));
    parts.push('Terms are separated by spaces instead of commas.');
    improvements.push('Separate terms with commas and no spaces (e.g. "music,podcast,radio").');
  } else if (c.spacesAroundCommas) {
    rules.push(failed('keywords.separators', 'Spaces around commas.'));
    parts.push('There are spaces around commas.');
    improvements.push('Remove the spaces after commas; each one costs a byte.');
  } else rules.push(passed('keywords.separators', 'Commas without spaces.'));
  const capped = (id: string, n: number, message: string, value: string) =>
    n === 0
      ? passed(id, message, {})
      : failed(id, message, { words: value }, Math.min(ruleById(id).maxPoints, 5 * n));
  rules.push(
    capped(
      'keywords.no-metadata-repeats',
      c.repeatedFromTitleOrSubtitle.length,
      c.repeatedFromTitleOrSubtitle.length === 0
        ? 'No word of the name or subtitle is repeated.'
        : `${plural(c.repeatedFromTitleOrSubtitle.length, 'word')} already in the name or subtitle.`,
      c.repeatedFromTitleOrSubtitle.join(', '),
    ),
    capped(
      'keywords.no-duplicates',
      c.duplicates.length,
      c.duplicates.length === 0
        ? 'Each word appears once.'
        : `${plural(c.duplicates.length, 'word')} repeated.`,
      c.duplicates.join(', '),
    ),
    capped(
      'keywords.no-plural-pairs',
      c.pluralDuplicates.length,
      c.pluralDuplicates.length === 0
        ? 'No singular/plural pairs.'
        : `${plural(c.pluralDuplicates.length, 'singular/plural pair')}.`,
      c.pluralDuplicates.map(([a, b]) => `${a}/${b}`).join(', '),
    ),
  );
  if (c.repeatedFromTitleOrSubtitle.length > 0) {
    parts.push(
      `Words already in the title or subtitle: ${c.repeatedFromTitleOrSubtitle.join(', ')}.`,
    );
    improvements.push(
      'Remove words that the title or subtitle already carry; Apple indexes them already.',
    );
  }
  if (c.duplicates.length > 0) {
    parts.push(`Repeated words: ${c.duplicates.join(', ')}.`);
    improvements.push('Keep each word once.');
  }
  if (c.pluralDuplicates.length > 0) {
    parts.push(
      `Singular and plural of the same word: ${c.pluralDuplicates.map(([a, b]) => `${a}/${b}`).join(', ')}.`,
    );
    improvements.push('Keep only one form of each word; Apple matches singular and plural.');
  }
  if (c.wastedBytes > 0)
    parts.push(`Removing them would free ${plural(c.wastedBytes, 'byte')} of the ${c.bytes} used.`);
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: 'medium',
    used: c.bytes,
    limit: c.limit,
    rules,
    textSource: 'rules',
  };
}
