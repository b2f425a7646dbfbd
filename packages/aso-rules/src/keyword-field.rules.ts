import type { TRuleOutcome, TSectionAnalysis } from '@aso/contracts';
import { ruleById } from './rules.catalogue';
import { failed, notApplicable, passed, notJudgedSection } from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import { KEYWORD_FIELD_MAX_BYTES } from './limits.constants';
import { keywordWords, plural, singular, uniqueWords, utf8Bytes, words } from './text.helpers';

/*
 * The keyword field's rules (docs/product.md#audit-scoring): its 100-byte limit and use, the
 * separators, words repeated from the name or subtitle or within the field, singular and
 * plural pairs, and which of the user's keyword terms the title or subtitle already carry.
 */

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
 * docs/product.md#how-an-audit-runs). Rules: at most 100 BYTES of UTF-8
 * (docs/product.md#limits-and-constants; App Store Connect Help, Platform version information);
 * terms separated by commas without spaces; no word repeated from the title or subtitle, no
 * duplicate words and no singular/plural pairs (Apple's search already combines and matches those,
 * so repeats waste bytes).
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
