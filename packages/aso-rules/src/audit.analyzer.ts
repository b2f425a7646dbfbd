import {
  SECTION_KEYS,
  type TAppListing,
  type TRecommendation,
  type TStructuredAnalysis,
} from '@aso/contracts';
import { categorySection } from './category.rules';
import { inAppEventsSection } from './in-app-events.rules';
import { FIRST_SCREENSHOTS } from './limits.constants';
import {
  checkScreenshots,
  hasPreviewVideo,
  iconSection,
  screenshotsSection,
  videoSection,
  type TCompetitorMedia,
} from './media.rules';
import {
  checkSubtitle,
  checkTitle,
  sharedMetadataWords,
  subtitleSection,
  titleSection,
} from './metadata.rules';
import { checkKeywordField, keywordCoverage, keywordsSection } from './keyword-field.rules';
import { parseCount, parseRating, ratingSection } from './rating.rules';
import { charCount, plural } from './text.helpers';
import { descriptionSection } from './description.rules';
import { appSizeSection, compatibilitySection } from './device.rules';
import { localizationSection } from './localization.rules';
import { reviewsSection } from './reviews.rules';
import { RULES_VERSION } from './rules.catalogue';
import { unreadableWhy } from './rule-outcome.helpers';
import { releaseFacts, updatesSection } from './updates.rules';
import { judgeOnReadInputs } from './judged.policy';
import { overallScore, SECTION_WEIGHTS } from './audit.scoring';
import { SECTION_EFFECTS, SECTION_LABELS } from './sections.constants';

/**
 * Prioritised recommendations: the first improvement of every judged section scoring under 100,
 * ordered by the points it could add to the overall score (weight x missing score), highest
 * first; ties keep section order. `priority` is 1-based. At most `max` (default 8).
 */
export function buildRecommendations(analysis: TStructuredAnalysis, max = 8): TRecommendation[] {
  const candidates = SECTION_KEYS.map((section, order) => ({
    section,
    order,
    gain: SECTION_WEIGHTS[section] * (100 - (analysis[section].score ?? 100)),
    action: analysis[section].improvements[0],
  })).filter((c): c is typeof c & { action: string } => c.gain > 0 && c.action !== undefined);
  candidates.sort((a, b) => b.gain - a.gain || a.order - b.order);
  return candidates.slice(0, max).map((c, i) => ({
    priority: i + 1,
    section: c.section,
    title: `${SECTION_LABELS[c.section]}: ${analysis[c.section].score}/100`,
    action: c.action,
    expectedEffect: SECTION_EFFECTS[c.section],
  }));
}

/**
 * Screenshot analysis text of one competitor, compared with the audited app: screenshot count
 * and orientation, the first three, the iPad set, a preview video, and a 'To improve:' line for
 * the audited app (the standalone page strips that trailing part, docs/product.md#results-view).
 */
export function competitorScreenshotAnalysis(competitor: TAppListing, main: TAppListing): string {
  const c = checkScreenshots(competitor);
  const m = checkScreenshots(main);
  const orientation =
    c.portrait + c.landscape === 0
      ? ''
      : c.landscape === 0
        ? ', portrait'
        : c.portrait === 0
          ? ', landscape'
          : ', mixed orientation';
  const theirVideo = hasPreviewVideo(competitor);
  const video =
    theirVideo === null
      ? 'its preview video could not be read'
      : theirVideo
        ? 'has a preview video'
        : 'has no preview video';
  const diff = c.iphoneCount - m.iphoneCount;
  const compare =
    diff === 0
      ? `the same number as ${main.appName}`
      : `${Math.abs(diff)} ${diff > 0 ? 'more' : 'fewer'} than ${main.appName}`;
  const lines = [
    `${competitor.appName} shows ${plural(c.iphoneCount, 'iPhone screenshot')}${orientation} (${compare}) and ${plural(c.ipadCount, 'iPad screenshot')}; ${theirVideo === null ? video : `it ${video}`}.`,
    c.firstThreeFilled
      ? `Its first ${FIRST_SCREENSHOTS} screenshots are filled, so search results show a full row.`
      : `Its first ${FIRST_SCREENSHOTS} slots are not all filled.`,
  ];
  const toImprove: string[] = [];
  if (diff > 0) toImprove.push(`add ${plural(diff, 'screenshot')} to match ${competitor.appName}`);
  if (theirVideo === true && hasPreviewVideo(main) === false)
    toImprove.push('add a preview video as this competitor has');
  if (c.hasIpadSet && !m.hasIpadSet) toImprove.push('add an iPad set');
  lines.push(
    `To improve: ${toImprove.length > 0 ? toImprove.join('; ') : "keep the first three screenshots clearer than this competitor's"}.`,
  );
  return lines.join(' ');
}

/** Input of {@link analyzeListing}. */
export interface TAnalyzeListingInput {
  main: TAppListing;
  /** Competitor listings, in the order the user gave them (at most 3). */
  competitors: readonly TAppListing[];
  /** The user's keyword text ('' or null when none was entered). */
  keywords?: string | null;
}

/**
 * Measured facts of an audit: the counts and limits the openai provider passes to the model
 * (docs/product.md#how-an-audit-runs: "counts, lengths and scores are computed in code").
 */
export interface TListingFacts {
  title: ReturnType<typeof checkTitle>;
  subtitle: ReturnType<typeof checkSubtitle>;
  keywordField: ReturnType<typeof checkKeywordField>;
  keywordCoverage: ReturnType<typeof keywordCoverage>;
  screenshots: ReturnType<typeof checkScreenshots>;
  previewVideos: number;
  rating: number | null;
  reviewCount: number | null;
  inAppEvents: number;
  category: string;
  categoryRank: string;
  descriptionChars: number;
  promotionalText: string | null;
  languages: string[];
  storefront: string;
  latestRelease: ReturnType<typeof releaseFacts>;
  fileSizeBytes: number | null;
  supportedDevices: string[];
  recentReviews: number;
  ratingHistogram: TAppListing['ratingHistogram'];
  competitors: Array<{
    appId: string;
    appName: string;
    subtitle: string | null;
    rating: number | null;
    reviewCount: number | null;
    iphoneScreenshots: number;
    /** null when no source could tell. */
    hasVideo: boolean | null;
    sharedWords: string[];
  }>;
}

/** Result of {@link analyzeListing}. */
export interface TListingAnalysis {
  structuredAnalysis: TStructuredAnalysis;
  /** Null when no section could be judged. */
  overallScore: number | null;
  /** The {@link RULES_VERSION} that scored it. */
  rulesVersion: string;
  recommendations: TRecommendation[];
  /** One text per competitor, same order as the input. */
  competitorScreenshotAnalyses: string[];
  facts: TListingFacts;
}

/** Measures the facts of {@link TListingFacts} (pure). */
export function listingFacts(input: TAnalyzeListingInput): TListingFacts {
  const { main, competitors } = input;
  const keywords = input.keywords ?? '';
  const shared = sharedMetadataWords(main.appName, main.subtitle, competitors);
  return {
    title: checkTitle(main.appName),
    subtitle: checkSubtitle(main.subtitle),
    keywordField: checkKeywordField(keywords, main.appName, main.subtitle),
    keywordCoverage: keywordCoverage(keywords, main.appName, main.subtitle),
    screenshots: checkScreenshots(main),
    previewVideos: main.previews.length || (main.previewVideoUrl ? 1 : 0),
    rating: parseRating(main.rating),
    reviewCount: parseCount(main.reviewCount),
    inAppEvents: main.inAppEvents.length,
    category: main.category,
    categoryRank: main.categoryRank,
    descriptionChars: charCount(main.description),
    promotionalText: main.promotionalText,
    languages: main.languages,
    storefront: main.storefront,
    latestRelease: releaseFacts(main),
    fileSizeBytes: main.fileSizeBytes ?? null,
    supportedDevices: main.supportedDevices ?? [],
    recentReviews: main.reviews?.recent?.length ?? 0,
    ratingHistogram: main.ratingHistogram,
    competitors: competitors.map((c, i) => ({
      appId: c.appId,
      appName: c.appName,
      subtitle: c.subtitle,
      rating: parseRating(c.rating),
      reviewCount: parseCount(c.reviewCount),
      iphoneScreenshots: checkScreenshots(c).iphoneCount,
      hasVideo: hasPreviewVideo(c),
      sharedWords: shared[i]?.shared ?? [],
    })),
  };
}

/**
 * The heuristic audit of a listing (docs/product.md#analysis-providers: `heuristic`):
 * deterministic and offline. Every section of {@link SECTION_KEYS} gets analysis text,
 * improvements, a score 0-100 (null when not judged), a confidence and the outcome of each
 * rule of the catalogue ({@link RULES_VERSION});
 * then the overall score, prioritised recommendations and one screenshot analysis text per
 * competitor.
 */
export function analyzeListing(input: TAnalyzeListingInput): TListingAnalysis {
  const { main, competitors } = input;
  const keywords = input.keywords ?? '';
  const media: TCompetitorMedia[] = competitors.map((c) => ({
    appName: c.appName,
    iphoneCount: checkScreenshots(c).iphoneCount,
    hasVideo: hasPreviewVideo(c),
  }));
  const sections: TStructuredAnalysis = {
    title: titleSection(main.appName, main.subtitle, keywords, competitors),
    subtitle: subtitleSection(
      main.appName,
      main.subtitle,
      keywords,
      main.unknownFields.includes('subtitle') ? unreadableWhy(main, 'subtitle') : null,
    ),
    keywords: keywordsSection(keywords, main.appName, main.subtitle),
    icon: iconSection(main),
    video: videoSection(main, media),
    screenshots: screenshotsSection(main, media),
    rating: ratingSection(
      main,
      competitors.map((c) => ({
        appName: c.appName,
        rating: parseRating(c.rating),
        reviewCount: parseCount(c.reviewCount),
      })),
    ),
    category: categorySection(main, competitors),
    inAppEvents: inAppEventsSection(
      main.inAppEvents,
      competitors.filter((c) => c.inAppEvents.length > 0).map((c) => c.appName),
      main.unknownFields.includes('inAppEvents') ? unreadableWhy(main, 'inAppEvents') : null,
    ),
    description: descriptionSection(main, keywords),
    updates: updatesSection(main),
    localization: localizationSection(main),
    reviews: reviewsSection(main),
    appSize: appSizeSection(main, competitors),
    compatibility: compatibilitySection(main),
  };
  const structuredAnalysis = Object.fromEntries(
    SECTION_KEYS.map((k) => [k, judgeOnReadInputs(sections[k], main)]),
  ) as TStructuredAnalysis;
  return {
    structuredAnalysis,
    rulesVersion: RULES_VERSION,
    overallScore: overallScore(structuredAnalysis),
    recommendations: buildRecommendations(structuredAnalysis),
    competitorScreenshotAnalyses: competitors.map((c) => competitorScreenshotAnalysis(c, main)),
    facts: listingFacts(input),
  };
}
