import type { TAppListing, TScreenshot, TSectionAnalysis } from '@aso/contracts';
import { FIRST_SCREENSHOTS, MAX_APP_PREVIEWS, SCREENSHOT_SLOTS } from './limits.constants';
import { clampScore, listText, plural } from './text.rules';

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
 * Screenshot rules (spec sections 5 and 9: 10 slots, the first 3 matter most; App Store
 * Connect Help, Screenshot specifications): count of the iPhone set against 10 slots, whether
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
 * Score 0-100 of an iPhone screenshot count: 0 -> 0, 1-2 -> 30, 3-5 -> 60, 6-9 -> 80,
 * 10 (all slots) -> 100.
 */
export function screenshotCountScore(count: number): number {
  if (count <= 0) return 0;
  if (count < FIRST_SCREENSHOTS) return 30;
  if (count < 6) return 60;
  if (count < SCREENSHOT_SLOTS) return 80;
  return 100;
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
 * Screenshots section: score from {@link screenshotCountScore}, minus 10 without an iPad set
 * when the iPhone set exists (iPad shoppers then see scaled iPhone images or none), minus 5 for
 * mixed orientations; gaps against competitors named. Confidence 'medium': counts and sizes are
 * measured, the images' message is not (the openai provider reads them).
 */
export function screenshotsSection(
  listing: Pick<TAppListing, 'screenshots'>,
  competitors: readonly TCompetitorMedia[],
): TSectionAnalysis {
  const c = checkScreenshots(listing);
  const parts: string[] = [];
  const improvements: string[] = [];
  let score = screenshotCountScore(c.iphoneCount);
  parts.push(
    `${plural(c.iphoneCount, 'iPhone screenshot')} of ${SCREENSHOT_SLOTS} slots` +
      (c.iphoneCount > 0 ? ` (${c.deviceTypes.iphone ?? 'iphone'})` : '') +
      `, ${plural(c.ipadCount, 'iPad screenshot')}.`,
  );
  if (c.iphoneCount === 0) {
    improvements.push(
      `Upload iPhone screenshots: at least ${FIRST_SCREENSHOTS}, ideally all ${SCREENSHOT_SLOTS} slots.`,
    );
  } else if (!c.firstThreeFilled) {
    parts.push(
      `The first ${FIRST_SCREENSHOTS} slots, the ones shown in search results, are not all filled.`,
    );
    improvements.push(
      `Fill at least the first ${FIRST_SCREENSHOTS} slots: they are what search results show.`,
    );
  } else {
    parts.push(`The first ${FIRST_SCREENSHOTS}, shown in search results, are filled.`);
    if (c.emptySlots > 0)
      improvements.push(`Use the ${plural(c.emptySlots, 'empty slot')} to show more features.`);
  }
  improvements.push(
    `Make the first ${FIRST_SCREENSHOTS} screenshots state the main benefit in large, readable captions.`,
  );
  if (c.hasIphoneSet && !c.hasIpadSet) {
    score -= 10;
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
    if (c.portrait > 0 && c.landscape > 0) {
      score -= 5;
      improvements.push('Use one orientation for the whole set so the gallery reads as one story.');
    }
  }
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
    score: clampScore(score),
    confidence: 'medium',
    used: c.iphoneCount,
    limit: SCREENSHOT_SLOTS,
  };
}

/**
 * Preview video section (App Store Connect Help, App preview specifications: up to 3 previews
 * of 15-30 s). Score 100 with a preview, 40 without (70 when no competitor has one either:
 * the gap costs less); competitors with a preview named. When no source could tell whether
 * there is one (lookup API only), score 50 with confidence 'low'.
 */
export function videoSection(
  listing: Pick<TAppListing, 'previews' | 'previewVideoUrl' | 'unknownFields'>,
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
    return {
      analysis: `The listing has ${plural(n, 'app preview video')} (up to ${MAX_APP_PREVIEWS} per device size).${gap}`,
      improvements:
        n < MAX_APP_PREVIEWS
          ? ['Keep the first seconds self-explanatory: previews autoplay muted in search results.']
          : [],
      score: 100,
      confidence: 'high',
      used: n,
      limit: MAX_APP_PREVIEWS,
    };
  }
  if (hasPreviewVideo(listing) === null) {
    return {
      analysis: `Whether the listing has an app preview video could not be read (no product page was available; low confidence).${gap}`,
      improvements: [
        'If the app has no preview yet, add a 15-30 second one that shows the app in use in its first seconds.',
      ],
      score: 50,
      confidence: 'low',
      used: 0,
      limit: MAX_APP_PREVIEWS,
    };
  }
  return {
    analysis: `The listing has no app preview video.${gap}`,
    improvements: [
      'Add a 15-30 second app preview that shows the app in use in its first seconds.',
    ],
    score: competitors.length > 0 && competitors.every((c) => c.hasVideo === false) ? 70 : 40,
    confidence: 'high',
    used: 0,
    limit: MAX_APP_PREVIEWS,
  };
}

/**
 * Icon section. Offline rules can only tell whether an icon was read; its design is judged by
 * the openai provider. Score 70 with an icon (confidence 'low'), 0 without.
 */
export function iconSection(listing: Pick<TAppListing, 'iconUrl'>): TSectionAnalysis {
  if (!listing.iconUrl) {
    return {
      analysis: 'No icon could be read from the listing.',
      improvements: ['Check that the app icon is set in App Store Connect.'],
      score: 0,
      confidence: 'low',
    };
  }
  return {
    analysis:
      "The icon is present. Its design is not judged by the offline rules (low confidence): compare it with the competitors' icons at small size.",
    improvements: [
      'Test a simpler icon with one recognisable symbol and strong contrast; it is the first thing shown in search results.',
    ],
    score: 70,
    confidence: 'low',
  };
}
