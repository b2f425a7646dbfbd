import {
  fieldAsOf,
  type TAppListing,
  type TRuleOutcome,
  type TSectionAnalysis,
} from '@aso/contracts';
import { failed, notApplicable, passed, notJudgedSection } from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import { median } from './rating.rules';
import { plural } from './text.helpers';

const DAY_MS = 86_400_000;
/** Versions looked at for the release cadence. */
export const CADENCE_VERSIONS = 10;

/**
 * Release notes that say nothing about what changed: the stock sentences ("Bug fixes and
 * performance improvements", "We update the app regularly…"), matched on the whole text.
 */
const GENERIC_NOTES: readonly RegExp[] = [
  /^(?:(?:minor|general|various|small)\s+)?(?:bug\s*fix(?:es)?|fixes)(?:\s*(?:,|and|&|\+)\s*(?:(?:performance|stability|general|minor|other)\s+)*(?:improvements?|enhancements?|updates?|tweaks?))*\.?!?$/i,
  /^(?:(?:performance|stability|general|minor)\s+)*(?:improvements?|enhancements?)(?:\s*(?:and|&)\s*bug\s*fix(?:es)?)?\.?$/i,
  /always (?:making|working on) (?:changes|improvements)/i,
  /update(?:s|d)? (?:the app )?regularly/i,
  /keep (?:your )?updates turned on/i,
];

/** True when release notes are empty or one of the stock sentences of {@link GENERIC_NOTES}. */
export function isGenericReleaseNote(notes: string | null | undefined): boolean {
  const text = (notes ?? '').trim().replace(/\s+/g, ' ');
  if (text === '') return true;
  return GENERIC_NOTES.some((re) => re.test(text));
}

/** Release facts of a listing; null when no release date could be read. */
export interface TReleaseFacts {
  latestVersion: string;
  latestDate: string;
  /** Whole days from the latest release to when the listing was read. */
  daysSinceRelease: number;
  /** Median days between consecutive releases of the last {@link CADENCE_VERSIONS}; null under 3 dated versions. */
  medianIntervalDays: number | null;
  datedVersions: number;
  latestNotes: string | null;
}

/** Measures {@link TReleaseFacts} against the listing's `fetchedAt` (so the result is pure). */
export function releaseFacts(
  listing: Pick<TAppListing, 'versionHistory' | 'fetchedAt' | 'releaseNotes'> &
    Partial<Pick<TAppListing, 'storeData'>>,
): TReleaseFacts | null {
  const dated = (listing.versionHistory ?? [])
    .map((v) => ({ ...v, at: v.releaseDate ? Date.parse(v.releaseDate) : Number.NaN }))
    .filter((v) => !Number.isNaN(v.at))
    .sort((a, b) => b.at - a.at);
  const latest = dated[0];
  if (!latest) return null;
  // Counted to when the store data was read (its recording date in offline replay), never now.
  const now = fieldAsOf(listing, 'versionHistory');
  const recent = dated.slice(0, CADENCE_VERSIONS);
  const intervals = recent.slice(1).map((v, i) => (recent[i]!.at - v.at) / DAY_MS);
  return {
    latestVersion: latest.version,
    latestDate: latest.releaseDate!,
    daysSinceRelease: Math.max(0, Math.floor((now - latest.at) / DAY_MS)),
    medianIntervalDays: intervals.length >= 2 ? Math.round(median(intervals)!) : null,
    datedVersions: dated.length,
    latestNotes: latest.releaseNotes ?? listing.releaseNotes,
  };
}

/** Points the time since the last release costs: 0 up to 90 days, 20 to 180, 40 to 365, else 60. */
function recencyPoints(days: number): number {
  if (days <= 90) return 0;
  if (days <= 180) return 20;
  if (days <= 365) return 40;
  return 60;
}

/**
 * Updates section, rules `updates.*`: days since the last release (version history or the
 * lookup's current version date, counted to when the listing was read), the release cadence
 * over the last versions, release notes that say what changed. Not judged when no release date
 * could be read.
 */
export function updatesSection(
  listing: Pick<TAppListing, 'versionHistory' | 'fetchedAt' | 'releaseNotes' | 'version'> &
    Partial<Pick<TAppListing, 'storeData'>>,
): TSectionAnalysis {
  const r = releaseFacts(listing);
  if (!r) {
    return notJudgedSection(
      'updates',
      'Not judged: no release date could be read from the store.',
      'No release date could be read.',
    );
  }
  const rules: TRuleOutcome[] = [];
  const improvements: string[] = [];
  const day = r.latestDate.slice(0, 10);
  const parts = [
    `Version ${r.latestVersion} was released on ${day}, ${plural(r.daysSinceRelease, 'day')} before the store data was read (${new Date(fieldAsOf(listing, 'versionHistory')).toISOString().slice(0, 10)}), not counted to today.`,
  ];
  const recencyFacts = {
    latestVersion: r.latestVersion,
    releaseDate: day,
    daysSinceRelease: r.daysSinceRelease,
  };
  const points = recencyPoints(r.daysSinceRelease);
  if (points === 0)
    rules.push(
      passed(
        'updates.recent-release',
        `Released ${plural(r.daysSinceRelease, 'day')} before the store data was read.`,
        recencyFacts,
      ),
    );
  else {
    rules.push(
      failed(
        'updates.recent-release',
        `Released ${plural(r.daysSinceRelease, 'day')} before the store data was read.`,
        recencyFacts,
        points,
      ),
    );
    improvements.push(
      'Ship an update: a listing without one for months reads as an abandoned app.',
    );
  }
  if (r.medianIntervalDays === null) {
    rules.push(
      notApplicable('updates.cadence', 'Fewer than 3 dated versions are listed.', {
        datedVersions: r.datedVersions,
      }),
    );
  } else {
    const cadenceFacts = {
      medianIntervalDays: r.medianIntervalDays,
      versions: Math.min(r.datedVersions, CADENCE_VERSIONS),
    };
    parts.push(
      `Over the last ${Math.min(r.datedVersions, CADENCE_VERSIONS)} versions a release came every ${plural(r.medianIntervalDays, 'day')} (median).`,
    );
    if (r.medianIntervalDays <= 60)
      rules.push(
        passed('updates.cadence', `Every ${plural(r.medianIntervalDays, 'day')}.`, cadenceFacts),
      );
    else {
      rules.push(
        failed(
          'updates.cadence',
          `Every ${plural(r.medianIntervalDays, 'day')}.`,
          cadenceFacts,
          r.medianIntervalDays <= 120 ? 10 : 20,
        ),
      );
      improvements.push('Release at a steadier pace, at least every two months.');
    }
  }
  const generic = isGenericReleaseNote(r.latestNotes);
  const notesFacts = { releaseNotes: r.latestNotes };
  if (generic) {
    rules.push(
      failed('updates.release-notes', 'The latest notes do not say what changed.', notesFacts),
    );
    parts.push(
      r.latestNotes
        ? `The latest release notes say nothing specific ("${r.latestNotes.trim().slice(0, 120)}").`
        : 'The latest release has no notes.',
    );
    improvements.push(
      'Say in the release notes what is new for the user: shoppers read them on the product page.',
    );
  } else
    rules.push(passed('updates.release-notes', 'The latest notes say what changed.', notesFacts));
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: 'high',
    rules,
    textSource: 'rules',
  };
}
