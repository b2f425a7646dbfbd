import type { TListingInAppEvent, TRuleOutcome, TSectionAnalysis } from '@aso/contracts';
import { failed, notApplicable, passed, notJudgedSection } from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import { IN_APP_EVENT_LIMITS, MAX_PUBLISHED_IN_APP_EVENTS } from './limits.constants';
import { charCount, plural } from './text.helpers';

/** One limit that an in-app event text breaks. */
export interface TInAppEventViolation {
  eventName: string;
  field: 'name' | 'shortDescription' | 'longDescription';
  used: number;
  limit: number;
}

/**
 * In-app event text limits (App Store Connect Help, Configure event details): name <= 30,
 * short description <= 50 (the product page's event subtitle), long description <= 120
 * characters. Returns every violation; [] when all fit.
 */
export function checkInAppEvent(
  event: Pick<TListingInAppEvent, 'eventName' | 'eventSubtitle' | 'eventDescription'>,
): TInAppEventViolation[] {
  const out: TInAppEventViolation[] = [];
  const test = (field: TInAppEventViolation['field'], text: string | null) => {
    if (!text) return;
    const used = charCount(text.trim());
    const limit = IN_APP_EVENT_LIMITS[field];
    if (used > limit) out.push({ eventName: event.eventName, field, used, limit });
  };
  test('name', event.eventName);
  test('shortDescription', event.eventSubtitle);
  test('longDescription', event.eventDescription);
  return out;
}

const FIELD_LABEL: Record<TInAppEventViolation['field'], string> = {
  name: 'name',
  shortDescription: 'short description',
  longDescription: 'long description',
};

/**
 * In-app events section, rules `inAppEvents.*`: events shown (none costs 60 points: events
 * are indexed and shown in search and on the Today tab), every text within Apple's limits (15
 * points per text over). `competitorsWithEvents` names competitors that run events. When no
 * source could read the events (`unreadable` gives why) the section is not judged.
 */
export function inAppEventsSection(
  events: ReadonlyArray<
    Pick<TListingInAppEvent, 'eventName' | 'eventSubtitle' | 'eventDescription' | 'eventBadge'>
  >,
  competitorsWithEvents: readonly string[],
  unreadable: string | null = null,
): TSectionAnalysis {
  const others =
    competitorsWithEvents.length > 0
      ? ` Competitors running events: ${competitorsWithEvents.join(', ')}.`
      : '';
  if (events.length === 0 && unreadable !== null) {
    return notJudgedSection(
      'inAppEvents',
      `Not judged: the in-app events could not be read from the store (${unreadable}).${others}`,
      'The in-app events could not be read.',
      {
        improvements: [
          `If none are running, publish in-app events (up to ${MAX_PUBLISHED_IN_APP_EVENTS} at a time): they appear in search results and on the Today tab.`,
        ],
        used: 0,
        limit: MAX_PUBLISHED_IN_APP_EVENTS,
      },
    );
  }
  if (events.length === 0) {
    const rules = [
      failed('inAppEvents.present', 'No in-app events are shown.', { events: 0 }),
      notApplicable('inAppEvents.text-limits', 'There are no events.'),
    ];
    return {
      analysis: `No in-app events are shown on the product page.${others}`,
      improvements: [
        `Publish in-app events (up to ${MAX_PUBLISHED_IN_APP_EVENTS} at a time) for launches, challenges or seasonal content: they appear in search results and on the Today tab.`,
      ],
      score: scoreOf(rules),
      confidence: 'high',
      used: 0,
      limit: MAX_PUBLISHED_IN_APP_EVENTS,
      rules,
      textSource: 'rules',
    };
  }
  const violations = events.flatMap((e) => checkInAppEvent(e));
  const rules: TRuleOutcome[] = [
    passed('inAppEvents.present', `${plural(events.length, 'event')} shown.`, {
      events: events.length,
    }),
  ];
  const parts = [
    `${plural(events.length, 'in-app event')} shown: ${events.map((e) => `"${e.eventName}"${e.eventBadge ? ` (${e.eventBadge})` : ''}`).join(', ')}.`,
  ];
  const improvements: string[] = [];
  if (violations.length === 0) {
    rules.push(passed('inAppEvents.text-limits', 'Every text fits its limit.'));
    parts.push(
      `Every name, short description and long description fits Apple's limits (${IN_APP_EVENT_LIMITS.name}/${IN_APP_EVENT_LIMITS.shortDescription}/${IN_APP_EVENT_LIMITS.longDescription} characters).`,
    );
  } else {
    rules.push(
      failed(
        'inAppEvents.text-limits',
        `${plural(violations.length, 'text')} over the limit.`,
        { over: violations.length },
        Math.min(45, 15 * violations.length),
      ),
    );
    for (const v of violations) {
      parts.push(
        `"${v.eventName}": ${FIELD_LABEL[v.field]} has ${v.used} characters (limit ${v.limit}).`,
      );
      improvements.push(
        `Shorten the ${FIELD_LABEL[v.field]} of "${v.eventName}" to ${v.limit} characters.`,
      );
    }
  }
  improvements.push('Keep a steady calendar of events so one is always live.');
  return {
    analysis: parts.join(' ') + others,
    improvements,
    score: scoreOf(rules),
    confidence: 'high',
    used: events.length,
    limit: MAX_PUBLISHED_IN_APP_EVENTS,
    rules,
    textSource: 'rules',
  };
}
