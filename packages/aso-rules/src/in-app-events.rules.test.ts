import { describe, expect, it } from 'vitest';
import { checkInAppEvent, inAppEventsSection } from './in-app-events.rules';

const ev = (name: string, short: string | null, long: string) => ({
  eventName: name,
  eventSubtitle: short,
  eventDescription: long,
  eventBadge: 'CHALLENGE',
});

describe('in-app events: name 30, short 50, long 120', () => {
  it('limits are inclusive', () => {
    expect(checkInAppEvent(ev('n'.repeat(30), 's'.repeat(50), 'l'.repeat(120)))).toEqual([]);
    expect(
      checkInAppEvent(ev('n'.repeat(31), 's'.repeat(51), 'l'.repeat(121))).map((v) => [
        v.field,
        v.used,
        v.limit,
      ]),
    ).toEqual([
      ['name', 31, 30],
      ['shortDescription', 51, 50],
      ['longDescription', 121, 120],
    ]);
  });
  it('section: none -> 40; fitting events -> 100; each violation -15', () => {
    expect(inAppEventsSection([], ['Instagram']).score).toBe(40);
    expect(inAppEventsSection([], ['Instagram']).analysis).toContain(
      'Competitors running events: Instagram',
    );
    expect(inAppEventsSection([ev('Dun It Anyway', 'Short', 'Long')], []).score).toBe(100);
    expect(inAppEventsSection([ev('n'.repeat(31), 'Short', 'l'.repeat(121))], []).score).toBe(70);
  });
});
