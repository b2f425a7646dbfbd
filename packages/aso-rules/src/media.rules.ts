import type { TAppListing, TRuleOutcome, TScreenshot, TSectionAnalysis } from '@aso/contracts';
import { displaySizeName } from './device-names';
import {
  failed,
  notApplicable,
  passed,
  notJudgedSection,
  unreadableWhy,
} from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import { FIRST_SCREENSHOTS, MAX_APP_PREVIEWS, SCREENSHOT_SLOTS } from './limits.constants';
import { listText, plural } from './text.helpers';

/** Orientation of a screenshot from its pixel size; 'unknown' when a size is 0 (not recorded). */
export type TOrientation = 'portrait' | 'landscape' | 'unknown';

/** Portrait when taller than wide, landscape when wider than tall (square counts as portrait). */
export function orientationOf(s: Pick<TScreenshot, 'width' | 'height'>): TOrientation {
  if (s.width <= 0 || s.height <= 0) return 'unknown';
  return s.width > s.height ? 'landscape' : 'portrait';
}

/** Screenshot facts of one listing (see {@link checkScreenshots}). */
export interface TScreenshotCheck {
  iphoneCount: number;
  ipadCount: number;
  /** iPhone slots of the 10 left empty. */
  emptySlots: number;
  /** True when the first 3 slots (the ones search results show) are filled. */
  firstThreeFilled: boolean;
  hasIphoneSet: boolean;
  hasIpadSet: boolean;
  /** Orientation counts of the iPhone set (the iPad set when there is no iPhone set). */
  portrait: number;
  landscape: number;
  unknownOrientation: number;
  /** Display-size keys of the sets, e.g. { iphone: 'iphone_d74', ipad: 'ipadPro_2018' }. */
  deviceTypes: Partial<Record<'iphone' | 'ipad', string>>;
}

/**
 * Screenshot rules (docs/product.md#limits-and-constants: 10 slots, the first 3 matter most; App
 * Store Connect Help, Screenshot specifications): count of the iPhone set against 10 slots, whether
 * the first three are filled, iPhone and iPad sets, portrait/landscape from pixel sizes.
 */
export function checkScreenshots(listing: Pick<TAppListing, 'screenshots'>): TScreenshotCheck {
  const iphone = listing.screenshots.iphone?.screenshots ?? [];
  const ipad = listing.screenshots.ipad?.screenshots ?? [];
  const primary = iphone.length > 0 ? iphone : ipad;
  const orient = primary.map(orientationOf);
  const deviceTypes: TScreenshotCheck['deviceTypes'] = {};
  if (listing.screenshots.iphone) deviceTypes.iphone = listing.screenshots.iphone.deviceType;
  if (listing.screenshots.ipad) deviceTypes.ipad = listing.screenshots.ipad.deviceType;
  return {
    iphoneCount: iphone.length,
    ipadCount: ipad.length,
    emptySlots: Math.max(0, SCREENSHOT_SLOTS - iphone.length),
    firstThreeFilled: iphone.length >= FIRST_SCREENSHOTS,
    hasIphoneSet: iphone.length > 0,
    hasIpadSet: ipad.length > 0,
    portrait: orient.filter((o) => o === 'portrait').length,
    landscape: orient.filter((o) => o === 'landscape').length,
    unknownOrientation: orient.filter((o) => o === 'unknown').length,
    deviceTypes,
  };
}

/**
 * Points an iPhone screenshot count loses (rule `screenshots.count`): 0 -> 100, 1-2 -> 70,
 * 3-5 -> 40, 6-9 -> 20, 10 (all slots) -> 0.
 */
export function screenshotCountPoints(count: number): number {
  if (count <= 0) return 100;
  if (count < FIRST_SCREENSHOTS) return 70;
  if (count < 6) return 40;
  if (count < SCREENSHOT_SLOTS) return 20;
  return 0;
}

/** Screenshot counts of competitors, for gap statements. */
export interface TCompetitorMedia {
  appName: string;
  iphoneCount: number;
  /** null when no source could tell (lookup API only: it does not list previews). */
  hasVideo: boolean | null;
}

/** Whether a listing has a preview video: null when no source could tell. */
export function hasPreviewVideo(
  listing: Pick<TAppListing, 'previews' | 'previewVideoUrl' | 'unknownFields'>,
): boolean | null {
  if (listing.previews.length > 0 || listing.previewVideoUrl) return true;
  return listing.unknownFields.includes('previews') ? null : false;
}

/**
 * Screenshots section, rules `screenshots.*`: the iPhone count against 10 slots, the first
 * three filled, an iPad set when the app runs on iPad (when the listing says it does not, the
 * rule does not apply), one orientation; gaps against competitors named. Confidence 'medium':
 * counts and sizes are measured, the images' message is not (the openai provider reads them).
 */
export function screenshotsSection(
  listing: Pick<TAppListing, 'screenshots' | 'supportedDevices'>,
  competitors: readonly TCompetitorMedia[],
): TSectionAnalysis {
  const c = checkScreenshots(listing);
  const parts: string[] = [];
  const improvements: string[] = [];
  const rules: TRuleOutcome[] = [];
  const facts = { iphone: c.iphoneCount, ipad: c.ipadCount, slots: SCREENSHOT_SLOTS };
  const countPoints = screenshotCountPoints(c.iphoneCount);
  rules.push(
    countPoints === 0
      ? passed('screenshots.count', `All ${SCREENSHOT_SLOTS} iPhone slots are filled.`, facts)
      : failed(
          'screenshots.count',
          `${plural(c.iphoneCount, 'iPhone screenshot')} of ${SCREENSHOT_SLOTS} slots.`,
          facts,
          countPoints,
        ),
  );
  parts.push(
    `${plural(c.iphoneCount, 'iPhone screenshot')} of ${SCREENSHOT_SLOTS} slots` +
      (c.iphoneCount > 0 ? ` (${displaySizeName(c.deviceTypes.iphone ?? 'iphone')})` : '') +
      `, ${plural(c.ipadCount, 'iPad screenshot')}.`,
  );
  if (c.iphoneCount === 0) {
    rules.push(failed('screenshots.first-three', 'No iPhone screenshots.', facts));
    improvements.push(
      `Upload iPhone screenshots: at least ${FIRST_SCREENSHOTS}, ideally all ${SCREENSHOT_SLOTS} slots.`,
    );
  } else if (!c.firstThreeFilled) {
    rules.push(failed('screenshots.first-three', 'Fewer than 3 iPhone screenshots.', facts));
    parts.push(
      `The first ${FIRST_SCREENSHOTS} slots, the ones shown in search results, are not all filled.`,
    );
    improvements.push(
      `Fill at least the first ${FIRST_SCREENSHOTS} slots: they are what search results show.`,
    );
  } else {
    rules.push(passed('screenshots.first-three', 'The first 3 slots are filled.', facts));
    parts.push(`The first ${FIRST_SCREENSHOTS}, shown in search results, are filled.`);
    if (c.emptySlots > 0)
      improvements.push(`Use the ${plural(c.emptySlots, 'empty slot')} to show more features.`);
  }
  improvements.push(
    `Make the first ${FIRST_SCREENSHOTS} screenshots state the main benefit in large, readable captions.`,
  );
  const runsOnIpad = listing.supportedDevices ? listing.supportedDevices.includes('ipad') : null;
  if (c.hasIpadSet) rules.push(passed('screenshots.ipad-set', 'There is an iPad set.', facts));
  else if (!c.hasIphoneSet)
    rules.push(notApplicable('screenshots.ipad-set', 'There is no iPhone set to compare with.'));
  else if (runsOnIpad === false)
    rules.push(notApplicable('screenshots.ipad-set', 'The store does not list the app for iPad.'));
  else {
    rules.push(failed('screenshots.ipad-set', 'There is no iPad set.', facts));
    parts.push('There is no iPad set.');
    improvements.push('Add an iPad screenshot set if the app runs on iPad.');
  }
  const known = c.portrait + c.landscape;
  if (known > 0) {
    parts.push(
      c.landscape === 0
        ? 'All are portrait.'
        : c.portrait === 0
          ? 'All are landscape.'
          : `Orientation is mixed (${c.portrait} portrait, ${c.landscape} landscape).`,
    );
  }
  const oFacts = { portrait: c.portrait, landscape: c.landscape };
  if (c.portrait > 0 && c.landscape > 0) {
    rules.push(failed('screenshots.orientation', 'Mixed orientations.', oFacts));
    improvements.push('Use one orientation for the whole set so the gallery reads as one story.');
  } else if (known > 0) rules.push(passed('screenshots.orientation', 'One orientation.', oFacts));
  else rules.push(notApplicable('screenshots.orientation', 'No screenshot sizes were read.'));
  const more = competitors.filter((x) => x.iphoneCount > c.iphoneCount);
  if (more.length > 0) {
    parts.push(
      `Competitors with more screenshots: ${more.map((x) => `${x.appName} (${x.iphoneCount})`).join(', ')}.`,
    );
  } else if (competitors.length > 0) {
    parts.push('No competitor shows more screenshots.');
  }
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: 'medium',
    used: c.iphoneCount,
    limit: SCREENSHOT_SLOTS,
    rules,
    textSource: 'rules',
  };
}

/**
 * Preview video section, rule `video.present`: a preview costs nothing; none costs 60 points
 * (30 when no competitor has one either: the gap costs less). When no source could tell
 * whether there is one (lookup API only), the section is not judged.
 */
export function videoSection(
  listing: Pick<TAppListing, 'previews' | 'previewVideoUrl' | 'unknownFields' | 'storeData'>,
  competitors: readonly TCompetitorMedia[],
): TSectionAnalysis {
  const count = listing.previews.length;
  const withVideo = competitors.filter((c) => c.hasVideo === true);
  const gap =
    competitors.length === 0
      ? ''
      : withVideo.length === 0
        ? competitors.every((c) => c.hasVideo === false)
          ? ' No competitor has one either.'
          : ''
        : ` Competitors with a preview video: ${listText(withVideo.map((c) => c.appName))}.`;
  if (count > 0 || listing.previewVideoUrl) {
    const n = Math.max(count, 1);
    const rules = [passed('video.present', `${plural(n, 'preview')}.`, { previews: n })];
    return {
      analysis: `The listing has ${plural(n, 'app preview video')} (up to ${MAX_APP_PREVIEWS} per device size).${gap}`,
      improvements:
        n < MAX_APP_PREVIEWS
          ? ['Keep the first seconds self-explanatory: previews autoplay muted in search results.']
          : [],
      score: scoreOf(rules),
      confidence: 'high',
      used: n,
      limit: MAX_APP_PREVIEWS,
      rules,
      textSource: 'rules',
    };
  }
  if (hasPreviewVideo(listing) === null) {
    return notJudgedSection(
      'video',
      `Not judged: whether the listing has an app preview video could not be read from the store (${unreadableWhy(listing, 'previews')}).${gap}`,
      'The previews could not be read.',
      {
        improvements: [
          'If the app has no preview yet, add a 15-30 second one that shows the app in use in its first seconds.',
        ],
        used: 0,
        limit: MAX_APP_PREVIEWS,
      },
    );
  }
  const noneEither = competitors.length > 0 && competitors.every((c) => c.hasVideo === false);
  const rules = [
    failed('video.present', 'No app preview video.', { previews: 0 }, noneEither ? 30 : 60),
  ];
  return {
    analysis: `The listing has no app preview video.${gap}`,
    improvements: [
      'Add a 15-30 second app preview that shows the app in use in its first seconds.',
    ],
    score: scoreOf(rules),
    confidence: 'high',
    used: 0,
    limit: MAX_APP_PREVIEWS,
    rules,
    textSource: 'rules',
  };
}

/**
 * Icon section, rule `icon.present`. Offline rules can only tell whether an icon is shown: a
 * missing icon fails; a shown one leaves the section not judged, since what would earn a score
 * (its design) is not measured (the openai provider describes it, never scores it).
 */
export function iconSection(listing: Pick<TAppListing, 'iconUrl'>): TSectionAnalysis {
  if (!listing.iconUrl) {
    const rules = [failed('icon.present', 'No icon was read from the listing.')];
    return {
      analysis: 'No icon could be read from the listing.',
      improvements: ['Check that the app icon is set in App Store Connect.'],
      score: scoreOf(rules),
      confidence: 'low',
      rules,
      textSource: 'rules',
    };
  }
  return {
    analysis:
      "Not judged: an icon is shown, and its design, which is what a score would measure, is not measured by the rules. Compare it with the competitors' icons at small size.",
    improvements: [],
    score: null,
    confidence: 'low',
    rules: [passed('icon.present', 'An icon is shown.')],
    textSource: 'rules',
  };
}
