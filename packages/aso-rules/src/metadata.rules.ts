import type { TRuleOutcome, TSectionAnalysis } from '@aso/contracts';
import { failed, notApplicable, passed, notJudgedSection } from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import { SUBTITLE_MAX_CHARS, TITLE_MAX_CHARS } from './limits.constants';
import { charCount, keywordWords, listText, singular, uniqueWords } from './text.helpers';
import { keywordCoverage } from './keyword-field.rules';

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
 * Title (app name) check. Rule: at most 30 characters (docs/product.md#limits-and-constants; App
 * Store Connect Help, App information). Using most of the 30 characters matters because the name
 * carries the most search weight of all indexed fields.
 */
export function checkTitle(title: string): TLengthCheck {
  return checkCharLimit(title.trim(), TITLE_MAX_CHARS);
}

/**
 * Subtitle check: at most 30 characters (docs/product.md#limits-and-constants; App Store Connect
 * Help, App information).
 */
export function checkSubtitle(subtitle: string | null): TLengthCheck {
  return checkCharLimit((subtitle ?? '').trim(), SUBTITLE_MAX_CHARS);
}

/**
 * Words of the subtitle that the title already has (compared in singular form). Apple indexes
 * the title and subtitle together, so a repeated word spends subtitle characters on nothing
 * (docs/product.md#how-an-audit-runs: duplicates across fields).
 */
export function wordsRepeatedInSubtitle(title: string, subtitle: string | null): string[] {
  const inTitle = new Set(keywordWords(title).map(singular));
  return uniqueWords(keywordWords(subtitle ?? '').filter((w) => inTitle.has(singular(w))));
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
