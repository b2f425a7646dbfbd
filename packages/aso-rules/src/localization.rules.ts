import { franc } from 'franc-min';
import type { TAppListing, TRuleOutcome, TSectionAnalysis } from '@aso/contracts';
import {
  failed,
  notApplicable,
  passed,
  notJudgedSection,
  unreadableWhy,
} from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import { isLanguage, storefrontLanguage } from './storefront-languages';
import { plural } from './text.helpers';

/** Characters of listing text needed before its language is detected. */
export const LANGUAGE_DETECTION_MIN_CHARS = 40;

/**
 * ISO 639-3 language of the listing's texts (name, subtitle and description together) as
 * `franc-min` detects it; null when there is too little text or it cannot tell.
 */
export function detectTextLanguage(
  listing: Pick<TAppListing, 'appName' | 'subtitle' | 'description'>,
): string | null {
  const text = [listing.appName, listing.subtitle ?? '', listing.description].join('\n').trim();
  if (Array.from(text).length < LANGUAGE_DETECTION_MIN_CHARS) return null;
  const code = franc(text, { minLength: LANGUAGE_DETECTION_MIN_CHARS });
  return code === 'und' ? null : code;
}

// Codes franc-min reports for languages that `storefront-languages` names differently.
const SAME_LANGUAGE: Record<string, string[]> = {
  zlm: ['zlm', 'ind'],
  arb: ['arb'],
  cmn: ['cmn'],
};

/**
 * Localization section, rules `localization.*`: how many languages the app supports (as the
 * store lists them; store listing localizations are not read and the text says so), whether
 * the storefront's main language is among them, and whether the listing's texts are written in
 * it. Not judged when the languages could not be read.
 */
export function localizationSection(
  listing: Pick<
    TAppListing,
    | 'languages'
    | 'storefront'
    | 'appName'
    | 'subtitle'
    | 'description'
    | 'unknownFields'
    | 'storeData'
  >,
): TSectionAnalysis {
  if (listing.languages.length === 0 && listing.unknownFields.includes('languages')) {
    return notJudgedSection(
      'localization',
      `Not judged: the app’s languages could not be read from the store (${unreadableWhy(listing, 'languages')}).`,
      'The languages could not be read.',
    );
  }
  const rules: TRuleOutcome[] = [];
  const improvements: string[] = [];
  const n = listing.languages.length;
  const cc = listing.storefront.toUpperCase();
  // The store lists the languages the app supports; which storefronts have a translated store
  // listing is not on any page read, so the text says what was measured.
  const parts = [
    (n <= 5
      ? `The app supports ${plural(n, 'language')}${n > 0 ? ` (${listing.languages.join(', ')})` : ''}`
      : `The app supports ${n} languages (${listing.languages.slice(0, 5).join(', ')} and ${n - 5} more)`) +
      '; store listing localizations in other storefronts were not read.',
  ];
  const main = storefrontLanguage(listing.storefront);
  if (!main) {
    rules.push(
      notApplicable(
        'localization.storefront-language',
        `No main language is known for the ${cc} storefront.`,
      ),
    );
    rules.push(
      notApplicable(
        'localization.texts-language',
        `No main language is known for the ${cc} storefront.`,
      ),
    );
  } else {
    const page = listing.storeData?.pageLanguage ?? null;
    const listed = listing.languages.some((l) => isLanguage(l, main, page));
    const facts = { storefront: cc, language: main.name, languages: n };
    if (listed)
      rules.push(passed('localization.storefront-language', `${main.name} is listed.`, facts));
    else {
      rules.push(failed('localization.storefront-language', `${main.name} is not listed.`, facts));
      parts.push(`${main.name}, the main language of the ${cc} storefront, is not among them.`);
      improvements.push(
        `Localize the app and its listing into ${main.name} for the ${cc} storefront.`,
      );
    }
    const detected = detectTextLanguage(listing);
    const textFacts = { storefront: cc, language: main.name, detected };
    if (detected === null) {
      rules.push(
        notApplicable(
          'localization.texts-language',
          'Too little text to tell its language.',
          textFacts,
        ),
      );
    } else if ((SAME_LANGUAGE[main.iso3] ?? [main.iso3]).includes(detected)) {
      rules.push(
        passed('localization.texts-language', `The texts are in ${main.name}.`, textFacts),
      );
      parts.push(`The name, subtitle and description are written in ${main.name}.`);
    } else {
      rules.push(
        failed(
          'localization.texts-language',
          `The texts are not in ${main.name} (detected: ${detected}).`,
          textFacts,
        ),
      );
      parts.push(
        `The name, subtitle and description are not written in ${main.name} (detected language code: ${detected}).`,
      );
      improvements.push(
        `Write the ${cc} listing's name, subtitle, keywords and description in ${main.name}.`,
      );
    }
  }
  if (n >= 2)
    rules.push(
      passed('localization.language-count', `The app supports ${n} languages.`, { languages: n }),
    );
  else {
    rules.push(
      failed('localization.language-count', `The app supports ${plural(n, 'language')}.`, {
        languages: n,
      }),
    );
    improvements.push('Localize the app for the storefronts where it has an audience.');
  }
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: 'medium',
    rules,
    textSource: 'rules',
  };
}
