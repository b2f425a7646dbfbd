import type {
  TRuleDefinition,
  TRuleOutcome,
  TSectionAnalysis,
  TRuleSource,
  TRulesCatalogue,
  TSectionKey,
  TAppListing,
  TListingField,
} from '@aso/contracts';

/**
 * The rules catalogue: every check the audit makes, as data (id, version, section, severity,
 * the most points it costs, the facts it reads and its source). A section's score is
 * `100 - sum(points of its failed rules)`, clamped to 0-100, so a score is a pure function of
 * the listing, the user's input and {@link RULES_VERSION}.
 */

/** Sources the rules cite. */
const APPLE = {
  appInformation: {
    kind: 'apple',
    label: 'App Store Connect Help, App information',
    url: 'https://developer.apple.com/help/app-store-connect/reference/app-information',
  },
  platformVersion: {
    kind: 'apple',
    label: 'App Store Connect Help, Platform version information',
    url: 'https://developer.apple.com/help/app-store-connect/reference/platform-version-information',
  },
  screenshots: {
    kind: 'apple',
    label: 'App Store Connect Help, Screenshot specifications',
    url: 'https://developer.apple.com/help/app-store-connect/reference/screenshot-specifications',
  },
  previews: {
    kind: 'apple',
    label: 'App Store Connect Help, App preview specifications',
    url: 'https://developer.apple.com/help/app-store-connect/reference/app-preview-specifications',
  },
  inAppEvents: {
    kind: 'apple',
    label: 'App Store Connect Help, Configure event details',
    url: 'https://developer.apple.com/help/app-store-connect/offer-in-app-events/configure-event-details',
  },
  productPage: {
    kind: 'apple',
    label: 'Apple Developer, Creating your product page',
    url: 'https://developer.apple.com/app-store/product-page/',
  },
  search: {
    kind: 'apple',
    label: 'Apple Developer, App Store search',
    url: 'https://developer.apple.com/app-store/search/',
  },
  ratings: {
    kind: 'apple',
    label: 'Apple Developer, Ratings, reviews and responses',
    url: 'https://developer.apple.com/app-store/ratings-and-reviews/',
  },
  buildSizes: {
    kind: 'apple',
    label: 'App Store Connect Help, Maximum build file sizes',
    url: 'https://developer.apple.com/help/app-store-connect/reference/maximum-build-file-sizes',
  },
  localization: {
    kind: 'apple',
    label: 'App Store Connect Help, Localize App Store information',
    url: 'https://developer.apple.com/help/app-store-connect/manage-app-information/localize-app-store-information',
  },
} as const satisfies Record<string, TRuleSource>;

const SPEC: TRuleSource = { kind: 'spec', label: 'Product specification, section 9', url: null };
const industry = (label: string): TRuleSource => ({
  kind: 'industry',
  label: `Industry practice: ${label}`,
  url: null,
});

type TRuleInput = Omit<TRuleDefinition, 'version'> & { version?: number };
const rule = (r: TRuleInput): TRuleDefinition => ({ version: 1, ...r });

/** Every rule, grouped by section in section order. */
export const RULES: readonly TRuleDefinition[] = [
  rule({
    id: 'title.present',
    section: 'title',
    severity: 'high',
    title: 'The app has a name.',
    maxPoints: 100,
    facts: ['appName'],
    source: APPLE.appInformation,
  }),
  rule({
    id: 'title.length-limit',
    section: 'title',
    severity: 'high',
    title: 'The name fits Apple’s 30-character limit.',
    maxPoints: 80,
    facts: ['appName'],
    source: APPLE.appInformation,
  }),
  rule({
    id: 'title.length-usage',
    section: 'title',
    severity: 'medium',
    title:
      'The name uses at least 80% of its 30 characters (25 points under 80%, 50 under 50%): it carries the most search weight.',
    maxPoints: 50,
    facts: ['appName'],
    source: industry('the name is the most heavily weighted indexed field; use its characters'),
  }),
  rule({
    id: 'title.user-keywords',
    section: 'title',
    severity: 'medium',
    title: 'The name contains at least one of the keywords the user entered.',
    maxPoints: 15,
    facts: ['appName', 'keywords'],
    source: APPLE.search,
  }),
  rule({
    id: 'subtitle.present',
    section: 'subtitle',
    severity: 'high',
    title: 'The app has a subtitle (30 indexed characters shown under the name).',
    maxPoints: 70,
    facts: ['subtitle'],
    source: APPLE.appInformation,
  }),
  rule({
    id: 'subtitle.length-limit',
    section: 'subtitle',
    severity: 'high',
    title: 'The subtitle fits Apple’s 30-character limit.',
    maxPoints: 80,
    facts: ['subtitle'],
    source: APPLE.appInformation,
  }),
  rule({
    id: 'subtitle.length-usage',
    section: 'subtitle',
    severity: 'medium',
    title:
      'The subtitle uses at least 80% of its 30 characters (25 points under 80%, 50 under 50%).',
    maxPoints: 50,
    facts: ['subtitle'],
    source: industry('indexed characters left unused are lost search coverage'),
  }),
  rule({
    id: 'subtitle.no-title-repeats',
    section: 'subtitle',
    severity: 'low',
    title: 'The subtitle repeats no word of the name (Apple indexes each word once).',
    maxPoints: 10,
    facts: ['appName', 'subtitle'],
    source: industry('a word indexed in the name gains nothing from the subtitle'),
  }),
  rule({
    id: 'keywords.byte-limit',
    section: 'keywords',
    severity: 'high',
    title: 'The keyword field fits Apple’s 100-byte limit (UTF-8 bytes, not characters).',
    maxPoints: 40,
    facts: ['keywords'],
    source: APPLE.platformVersion,
  }),
  rule({
    id: 'keywords.byte-usage',
    section: 'keywords',
    severity: 'medium',
    title: 'The keyword field uses at least 80% of its 100 bytes.',
    maxPoints: 10,
    facts: ['keywords'],
    source: industry('unused keyword bytes are lost search coverage'),
  }),
  rule({
    id: 'keywords.separators',
    section: 'keywords',
    severity: 'medium',
    title: 'Terms are separated by commas, without spaces.',
    maxPoints: 10,
    facts: ['keywords'],
    source: APPLE.platformVersion,
  }),
  rule({
    id: 'keywords.no-metadata-repeats',
    section: 'keywords',
    severity: 'medium',
    title:
      'No word of the name or subtitle is repeated in the keyword field (5 points each, at most 25).',
    maxPoints: 25,
    facts: ['keywords', 'appName', 'subtitle'],
    source: APPLE.search,
  }),
  rule({
    id: 'keywords.no-duplicates',
    section: 'keywords',
    severity: 'low',
    title: 'Each word appears once (5 points per repeated word, at most 20).',
    maxPoints: 20,
    facts: ['keywords'],
    source: industry('a repeated word spends bytes on nothing'),
  }),
  rule({
    id: 'keywords.no-plural-pairs',
    section: 'keywords',
    severity: 'low',
    title: 'No singular and plural of the same word (5 points per pair, at most 15).',
    maxPoints: 15,
    facts: ['keywords'],
    source: industry('App Store search matches singular and plural forms'),
  }),
  rule({
    id: 'icon.present',
    section: 'icon',
    severity: 'high',
    title: 'An app icon is shown on the listing.',
    maxPoints: 100,
    facts: ['iconUrl'],
    source: APPLE.productPage,
  }),
  rule({
    id: 'video.present',
    section: 'video',
    severity: 'medium',
    title:
      'The listing has an app preview video (60 points without, 30 when no competitor has one either).',
    maxPoints: 60,
    facts: ['previews'],
    source: APPLE.previews,
  }),
  rule({
    id: 'screenshots.count',
    section: 'screenshots',
    severity: 'high',
    title:
      'iPhone screenshots fill the 10 slots (100 points for none, 70 for 1-2, 40 for 3-5, 20 for 6-9).',
    maxPoints: 100,
    facts: ['screenshots'],
    source: APPLE.screenshots,
  }),
  rule({
    id: 'screenshots.first-three',
    section: 'screenshots',
    severity: 'high',
    title: 'The first 3 slots, the ones search results show, are filled.',
    maxPoints: 0,
    facts: ['screenshots'],
    source: SPEC,
  }),
  rule({
    id: 'screenshots.ipad-set',
    section: 'screenshots',
    severity: 'low',
    title: 'An app that runs on iPad has its own iPad screenshot set.',
    maxPoints: 10,
    facts: ['screenshots', 'supportedDevices'],
    source: APPLE.screenshots,
  }),
  rule({
    id: 'screenshots.orientation',
    section: 'screenshots',
    severity: 'low',
    title: 'The set uses one orientation.',
    maxPoints: 5,
    facts: ['screenshots'],
    source: industry('a gallery in one orientation reads as one story'),
  }),
  rule({
    id: 'rating.has-ratings',
    section: 'rating',
    severity: 'high',
    title: 'The app has ratings in this storefront.',
    maxPoints: 100,
    facts: ['rating', 'reviewCount'],
    source: APPLE.ratings,
  }),
  rule({
    id: 'rating.healthy',
    section: 'rating',
    severity: 'high',
    title:
      'The rating is at or above 4.3 (15 points under 4.5, 40 under 4.3, 60 under 4.0, 80 under 3.5).',
    maxPoints: 80,
    facts: ['rating'],
    source: SPEC,
  }),
  rule({
    id: 'rating.volume',
    section: 'rating',
    severity: 'medium',
    title: 'The number of ratings is at least half the competitors’ median.',
    maxPoints: 10,
    facts: ['reviewCount', 'competitors.reviewCount'],
    source: industry('few ratings make the average less trusted and the app less visible'),
  }),
  rule({
    id: 'category.chart-position',
    section: 'category',
    severity: 'medium',
    title:
      'The app ranks in its category chart (20 points outside the top 10, 40 outside the top 50, 50 outside the top 200, 60 when not ranked).',
    maxPoints: 60,
    facts: ['category', 'categoryRank'],
    source: industry('chart position drives browse traffic'),
  }),
  rule({
    id: 'inAppEvents.present',
    section: 'inAppEvents',
    severity: 'medium',
    title: 'The listing shows in-app events.',
    maxPoints: 60,
    facts: ['inAppEvents'],
    source: APPLE.inAppEvents,
  }),
  rule({
    id: 'inAppEvents.text-limits',
    section: 'inAppEvents',
    severity: 'medium',
    title:
      'Event names, short and long descriptions fit 30/50/120 characters (15 points per text over).',
    maxPoints: 45,
    facts: ['inAppEvents'],
    source: APPLE.inAppEvents,
  }),
  rule({
    id: 'description.present',
    section: 'description',
    severity: 'high',
    title: 'The listing has a description.',
    maxPoints: 100,
    facts: ['description'],
    source: APPLE.platformVersion,
  }),
  rule({
    id: 'description.length',
    section: 'description',
    severity: 'low',
    title:
      'The description uses a good part of its 4,000 characters (20 points under 1,000, 10 under 2,000).',
    maxPoints: 20,
    facts: ['description'],
    source: APPLE.platformVersion,
  }),
  rule({
    id: 'description.opening',
    section: 'description',
    severity: 'medium',
    title:
      'The first ~170 characters, shown before “more”, name what the app does with the words of its name, subtitle or keywords.',
    maxPoints: 15,
    facts: ['description', 'appName', 'subtitle', 'keywords'],
    source: APPLE.productPage,
  }),
  rule({
    id: 'description.repeated-phrases',
    section: 'description',
    severity: 'low',
    title: 'No three-word phrase is repeated three times or more.',
    maxPoints: 10,
    facts: ['description'],
    source: industry(
      'the iOS description is not indexed for search: repetition only costs readability',
    ),
  }),
  rule({
    id: 'description.promotional-text',
    section: 'description',
    severity: 'low',
    title:
      'Promotional text is set and fits 170 characters (it sits above the description and changes without a release).',
    maxPoints: 10,
    facts: ['promotionalText'],
    source: APPLE.platformVersion,
  }),
  rule({
    id: 'updates.recent-release',
    section: 'updates',
    severity: 'medium',
    title: 'The last release is recent (20 points after 90 days, 40 after 180, 60 after 365).',
    maxPoints: 60,
    facts: ['versionHistory', 'fetchedAt'],
    source: industry('stores and shoppers read a recent update as an app that is maintained'),
  }),
  rule({
    id: 'updates.cadence',
    section: 'updates',
    severity: 'low',
    title:
      'Releases come at least every 60 days over the last versions (10 points up to 120 days, 20 beyond).',
    maxPoints: 20,
    facts: ['versionHistory'],
    source: industry('a steady release cadence'),
  }),
  rule({
    id: 'updates.release-notes',
    section: 'updates',
    severity: 'low',
    title: 'The latest release notes say what changed (not only “Bug fixes and improvements”).',
    maxPoints: 10,
    facts: ['versionHistory', 'releaseNotes'],
    source: APPLE.productPage,
  }),
  rule({
    id: 'localization.storefront-language',
    section: 'localization',
    severity: 'high',
    title: 'The storefront’s main language is among the app’s languages.',
    maxPoints: 40,
    facts: ['languages', 'storefront'],
    source: APPLE.localization,
  }),
  rule({
    id: 'localization.texts-language',
    section: 'localization',
    severity: 'medium',
    title: 'The listing’s texts are written in the storefront’s main language.',
    maxPoints: 30,
    facts: ['appName', 'subtitle', 'description', 'storefront'],
    source: APPLE.localization,
  }),
  rule({
    id: 'localization.language-count',
    section: 'localization',
    severity: 'low',
    title: 'The app is offered in more than one language.',
    maxPoints: 10,
    facts: ['languages'],
    source: industry('each localization opens the listing to more shoppers'),
  }),
  rule({
    id: 'reviews.histogram',
    section: 'reviews',
    severity: 'medium',
    title: 'At most 10% of all ratings are 1-2 stars (10 points up to 20%, 25 beyond).',
    maxPoints: 25,
    facts: ['ratingHistogram'],
    source: APPLE.ratings,
  }),
  rule({
    id: 'reviews.recent-negative-share',
    section: 'reviews',
    severity: 'high',
    title:
      'At most 20% of the recent reviews are 1-2 stars (15 points up to 40%, 30 beyond); needs 5 reviews.',
    maxPoints: 30,
    facts: ['reviews.recent'],
    source: APPLE.ratings,
  }),
  rule({
    id: 'reviews.recurring-complaints',
    section: 'reviews',
    severity: 'medium',
    title: 'No complaint term recurs in 3 or more of the recent 1-2 star reviews.',
    maxPoints: 10,
    facts: ['reviews.recent', 'storefront'],
    source: APPLE.ratings,
  }),
  rule({
    id: 'appSize.cellular-limit',
    section: 'appSize',
    severity: 'medium',
    title:
      'The download fits Apple’s 200 MB cellular download limit, above which iPhones ask before downloading over cellular.',
    maxPoints: 20,
    facts: ['fileSizeBytes'],
    source: APPLE.buildSizes,
  }),
  rule({
    id: 'compatibility.ipad',
    section: 'compatibility',
    severity: 'medium',
    title: 'The app runs on iPad.',
    maxPoints: 20,
    facts: ['supportedDevices'],
    source: industry('iPad shoppers see only apps that run on iPad'),
  }),
  rule({
    id: 'compatibility.apple-watch',
    section: 'compatibility',
    severity: 'low',
    title: 'The app has an Apple Watch app.',
    maxPoints: 10,
    facts: ['supportedDevices'],
    source: industry('the Apple Watch App Store is another place to be found'),
  }),
  rule({
    id: 'compatibility.mac',
    section: 'compatibility',
    severity: 'low',
    title: 'The app is offered on Mac.',
    maxPoints: 5,
    facts: ['supportedDevices'],
    source: industry('the Mac App Store lists iPhone and iPad apps that allow it'),
  }),
  rule({
    id: 'compatibility.vision',
    section: 'compatibility',
    severity: 'low',
    title: 'The app is offered on Apple Vision Pro.',
    maxPoints: 5,
    facts: ['supportedDevices'],
    source: industry('the visionOS App Store lists compatible iPhone and iPad apps'),
  }),
];

/**
 * Version of the whole catalogue, recorded by every audit. Raise it whenever a rule is added,
 * removed, or changes version; the catalogue test compares it with the rules' ids and versions.
 */
export const RULES_VERSION = '2.0.0';

const BY_ID = new Map(RULES.map((r) => [r.id, r]));

/** The rule with `id`; throws for an unknown id (a bug in a section function). */
export function ruleById(id: string): TRuleDefinition {
  const r = BY_ID.get(id);
  if (!r) throw new Error(`unknown rule ${id}`);
  return r;
}

/** The catalogue as `GET /api/rules` answers it. */
export function rulesCatalogue(): TRulesCatalogue {
  return { version: RULES_VERSION, rules: [...RULES] };
}

/** The rules of one section, in catalogue order. */
export function sectionRules(section: TSectionKey): TRuleDefinition[] {
  return RULES.filter((r) => r.section === section);
}

type TFacts = TRuleOutcome['facts'];

/** A passed rule. */
export function passed(id: string, message: string, facts: TFacts = {}): TRuleOutcome {
  const r = ruleById(id);
  return {
    id,
    version: r.version,
    severity: r.severity,
    status: 'passed',
    points: 0,
    facts,
    message,
  };
}

/**
 * A failed rule costing `points` (default: the rule's `maxPoints`; never more). Throws when
 * `points` exceeds the rule's maximum (a bug).
 */
export function failed(
  id: string,
  message: string,
  facts: TFacts = {},
  points?: number,
): TRuleOutcome {
  const r = ruleById(id);
  const cost = points ?? r.maxPoints;
  if (cost > r.maxPoints) throw new Error(`${id} costs at most ${r.maxPoints} points`);
  return {
    id,
    version: r.version,
    severity: r.severity,
    status: 'failed',
    points: cost,
    facts,
    message,
  };
}

/** A rule that does not concern this listing. */
export function notApplicable(id: string, message: string, facts: TFacts = {}): TRuleOutcome {
  const r = ruleById(id);
  return {
    id,
    version: r.version,
    severity: r.severity,
    status: 'not_applicable',
    points: 0,
    facts,
    message,
  };
}

/** A rule whose input could not be read. */
export function notJudged(id: string, message: string, facts: TFacts = {}): TRuleOutcome {
  const r = ruleById(id);
  return {
    id,
    version: r.version,
    severity: r.severity,
    status: 'not_judged',
    points: 0,
    facts,
    message,
  };
}

/** Every rule of `section` not judged, with one message. */
export function sectionNotJudged(section: TSectionKey, message: string): TRuleOutcome[] {
  return sectionRules(section).map((r) => notJudged(r.id, message));
}

/**
 * A section that is not judged: its input could not be read (`reason`, one sentence). No
 * score, low confidence, every rule of the section `not_judged`; `extra` adds the section's
 * `used`/`limit` or improvements.
 */
export function notJudgedSection(
  section: TSectionKey,
  analysis: string,
  reason: string,
  extra: Partial<Pick<TSectionAnalysis, 'improvements' | 'used' | 'limit'>> = {},
): TSectionAnalysis {
  return {
    analysis,
    improvements: [],
    score: null,
    confidence: 'low',
    rules: sectionNotJudged(section, reason),
    textSource: 'rules',
    ...extra,
  };
}

/**
 * Why listing field `field` could not be read from the store, for a "not judged" text: the
 * reason its store data record gives (e.g. 'not read from the 2025 page layout', 'product page:
 * HTTP 503'), or 'no source could read it' for listings stored before that record existed.
 */
export function unreadableWhy(
  listing: { storeData?: TAppListing['storeData'] },
  field: TListingField,
): string {
  return listing.storeData?.fields[field]?.reason ?? 'no source could read it';
}

/** Section score 0-100: 100 minus the points of the failed rules, clamped at 0. */
export function scoreOf(outcomes: readonly TRuleOutcome[]): number {
  return Math.max(0, 100 - outcomes.reduce((sum, o) => sum + o.points, 0));
}
