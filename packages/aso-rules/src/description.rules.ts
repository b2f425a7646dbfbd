import type { TAppListing, TRuleOutcome, TSectionAnalysis } from '@aso/contracts';
import {
  DESCRIPTION_MAX_CHARS,
  DESCRIPTION_VISIBLE_CHARS,
  PROMOTIONAL_TEXT_MAX_CHARS,
} from './limits.constants';
import {
  failed,
  notApplicable,
  passed,
  notJudgedSection,
  unreadableWhy,
} from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import {
  charCount,
  keywordWords,
  listText,
  plural,
  singular,
  STOP_WORDS,
  words,
} from './text.helpers';
import { keywordTerms } from './keyword-field.rules';

/** A three-word phrase and how often the description uses it. */
export interface TRepeatedPhrase {
  phrase: string;
  count: number;
}

/**
 * Three-word phrases (lower-cased words, links left out, stop words kept inside but a phrase
 * made only of stop words skipped) used at least `min` times, most frequent first, ties alphabetical.
 */
export function repeatedPhrases(text: string, min = 3): TRepeatedPhrase[] {
  // Links are not prose: 'https www example com' would count as phrases.
  const w = words(text.replace(/\b(?:https?:\/\/|www\.)\S+/gi, ' '));
  const counts = new Map<string, number>();
  for (let i = 0; i + 3 <= w.length; i++) {
    const three = w.slice(i, i + 3);
    if (three.every((x) => STOP_WORDS.has(x))) continue;
    const phrase = three.join(' ');
    counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  }
  return [...counts.entries()]
    .filter(([, n]) => n >= min)
    .map(([phrase, count]) => ({ phrase, count }))
    .sort((a, b) => b.count - a.count || a.phrase.localeCompare(b.phrase));
}

/** The part of a description shown before "more": its first 170 characters (code points). */
export function visibleOpening(description: string): string {
  return Array.from(description.trim()).slice(0, DESCRIPTION_VISIBLE_CHARS).join('');
}

/**
 * Words of the opening that the name, the subtitle or the user's keywords also use (singular
 * forms compared, stop words left out), in order of the opening.
 */
export function openingSearchWords(
  opening: string,
  listing: Pick<TAppListing, 'appName' | 'subtitle'>,
  userKeywords: string,
): string[] {
  const wanted = new Set(
    [
      ...keywordWords(listing.appName),
      ...keywordWords(listing.subtitle ?? ''),
      ...keywordTerms(userKeywords).flatMap(keywordWords),
    ].map(singular),
  );
  return [...new Set(keywordWords(opening).filter((w) => wanted.has(singular(w))))];
}

/**
 * Description section, rules `description.*`: a description is shown; it uses a good part of
 * its 4,000 characters; the first ~170 characters (before "more") name what the app does with
 * the words of its name, subtitle or keywords; no three-word phrase is repeated 3 times;
 * promotional text is set and fits 170 characters (judged only when the page was read). The
 * iOS description is not indexed for search: it converts, it does not rank. Not judged when the
 * description could not be read.
 */
export function descriptionSection(
  listing: Pick<
    TAppListing,
    'description' | 'promotionalText' | 'appName' | 'subtitle' | 'unknownFields' | 'storeData'
  >,
  userKeywords: string,
): TSectionAnalysis {
  const text = listing.description.trim();
  const notIndexed =
    'Apple does not index the iOS description for search: it converts visitors, it does not rank.';
  if (listing.unknownFields.includes('description')) {
    return notJudgedSection(
      'description',
      `Not judged: the description could not be read from the store (${unreadableWhy(listing, 'description')}). ${notIndexed}`,
      'The description could not be read.',
    );
  }
  const length = charCount(text);
  const rules: TRuleOutcome[] = [];
  const parts: string[] = [];
  const improvements: string[] = [];
  const lengthFacts = { characters: length, limit: DESCRIPTION_MAX_CHARS };
  if (length === 0) {
    rules.push(failed('description.present', 'The listing shows no description.', lengthFacts));
    for (const id of [
      'description.length',
      'description.opening',
      'description.repeated-phrases',
      'description.promotional-text',
    ])
      rules.push(notApplicable(id, 'There is no description.'));
    return {
      analysis: `The listing shows no description. ${notIndexed}`,
      improvements: ['Write a description that opens with the main benefit in its first lines.'],
      score: scoreOf(rules),
      confidence: 'high',
      used: 0,
      limit: DESCRIPTION_MAX_CHARS,
      rules,
      textSource: 'rules',
    };
  }
  rules.push(passed('description.present', `${length} characters.`, lengthFacts));
  parts.push(
    `The description has ${length.toLocaleString('en-US')} of ${DESCRIPTION_MAX_CHARS.toLocaleString('en-US')} characters.`,
  );
  if (length < 1000) {
    rules.push(failed('description.length', 'Under 1,000 characters.', lengthFacts, 20));
    improvements.push(
      'Describe the main features and who the app is for: the description has room for 4,000 characters.',
    );
  } else if (length < 2000) {
    rules.push(failed('description.length', 'Under 2,000 characters.', lengthFacts, 10));
    improvements.push(
      'Use more of the 4,000 characters for features and proof (awards, press, numbers).',
    );
  } else rules.push(passed('description.length', 'At least 2,000 characters.', lengthFacts));

  const opening = visibleOpening(text);
  const hits = openingSearchWords(opening, listing, userKeywords);
  const openingFacts = { opening, words: hits.join(', ') };
  if (hits.length > 0) {
    rules.push(passed('description.opening', `The opening uses ${listText(hits)}.`, openingFacts));
    parts.push(
      `The first ${DESCRIPTION_VISIBLE_CHARS} characters, shown before "more", mention ${listText(hits.map((w) => `"${w}"`))}.`,
    );
  } else {
    rules.push(
      failed(
        'description.opening',
        'The opening uses no word of the name, subtitle or keywords.',
        openingFacts,
      ),
    );
    parts.push(
      `The first ${DESCRIPTION_VISIBLE_CHARS} characters, shown before "more", do not mention what the name, subtitle or keywords promise.`,
    );
    improvements.push(
      `State the main benefit in the first ${DESCRIPTION_VISIBLE_CHARS} characters: most visitors never tap "more".`,
    );
  }

  const repeated = repeatedPhrases(text);
  if (repeated.length > 0) {
    const list = repeated.slice(0, 3).map((r) => `"${r.phrase}" (${r.count}x)`);
    rules.push(
      failed('description.repeated-phrases', `Repeated: ${list.join(', ')}.`, {
        phrases: list.join(', '),
      }),
    );
    parts.push(`Repeated phrases: ${list.join(', ')}.`);
    improvements.push(
      'Cut repeated phrases: repetition does not help search ranking on iOS, it only costs readability.',
    );
  } else rules.push(passed('description.repeated-phrases', 'No phrase is repeated 3 times.'));

  if (listing.unknownFields.includes('promotionalText')) {
    rules.push(
      notApplicable(
        'description.promotional-text',
        `The promotional text could not be read (${unreadableWhy(listing, 'promotionalText')}).`,
      ),
    );
  } else if (!listing.promotionalText) {
    rules.push(
      failed('description.promotional-text', 'No promotional text is shown.', { characters: 0 }, 5),
    );
    improvements.push(
      `Add promotional text (up to ${PROMOTIONAL_TEXT_MAX_CHARS} characters above the description): it can change any time without a new release.`,
    );
  } else {
    const promo = charCount(listing.promotionalText.trim());
    const promoFacts = { characters: promo, limit: PROMOTIONAL_TEXT_MAX_CHARS };
    parts.push(
      `Promotional text: "${listing.promotionalText.trim()}" (${promo} of ${PROMOTIONAL_TEXT_MAX_CHARS} characters).`,
    );
    if (promo > PROMOTIONAL_TEXT_MAX_CHARS) {
      rules.push(
        failed(
          'description.promotional-text',
          `${promo - PROMOTIONAL_TEXT_MAX_CHARS} characters over the limit.`,
          promoFacts,
        ),
      );
      improvements.push(
        `Shorten the promotional text to ${PROMOTIONAL_TEXT_MAX_CHARS} characters.`,
      );
    } else
      rules.push(
        passed('description.promotional-text', `${plural(promo, 'character')}.`, promoFacts),
      );
  }
  parts.push(notIndexed);
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: 'high',
    used: length,
    limit: DESCRIPTION_MAX_CHARS,
    rules,
    textSource: 'rules',
  };
}
