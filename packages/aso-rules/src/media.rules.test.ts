import { describe, expect, it } from 'vitest';
import {
  checkScreenshots,
  orientationOf,
  screenshotCountPoints,
  screenshotsSection,
  videoSection,
} from './media.rules';
import { constructedListing, shots } from './test-listing.helpers';

describe('screenshots: 10 slots, first 3', () => {
  it.each([
    [0, 100, false, 10],
    [2, 70, false, 8],
    [3, 40, true, 7],
    [9, 20, true, 1],
    [10, 0, true, 0],
  ])(
    '%i screenshots -> rule screenshots.count costs %i, first three %s, %i empty slots',
    (n, points, firstThree, empty) => {
      expect(screenshotCountPoints(n)).toBe(points);
      const c = checkScreenshots(
        constructedListing({
          screenshots: { iphone: { deviceType: 'iphone_d74', screenshots: shots(n) } },
        }),
      );
      expect(c).toMatchObject({ iphoneCount: n, firstThreeFilled: firstThree, emptySlots: empty });
    },
  );
  it('orientation from pixel sizes', () => {
    expect(orientationOf({ width: 1290, height: 2796 })).toBe('portrait');
    expect(orientationOf({ width: 2796, height: 1290 })).toBe('landscape');
    expect(orientationOf({ width: 0, height: 0 })).toBe('unknown');
  });
  it('section: iPhone and iPad sets, mixed orientation and competitor gaps', () => {
    const listing = constructedListing({
      screenshots: {
        iphone: { deviceType: 'iphone_6_5', screenshots: [...shots(4), ...shots(2, 2688, 1242)] },
      },
    });
    const s = screenshotsSection(listing, [{ appName: 'Rival', iphoneCount: 10, hasVideo: false }]);
    // 6 -> 80, no iPad set -10, mixed -5
    expect(s.score).toBe(65);
    expect(s.analysis).toContain('Orientation is mixed (4 portrait, 2 landscape)');
    expect(s.analysis).toContain('Rival (10)');
    expect(s.improvements.some((i) => /iPad/.test(i))).toBe(true);
    const full = constructedListing({
      screenshots: {
        iphone: { deviceType: 'iphone_d74', screenshots: shots(10) },
        ipad: { deviceType: 'ipadPro_2018', screenshots: shots(5, 2048, 2732) },
      },
    });
    expect(screenshotsSection(full, []).score).toBe(100);
    expect(screenshotsSection(constructedListing(), []).score).toBe(0);
  });
});

describe('preview video', () => {
  it('present -> 100, absent -> 40, absent and no competitor has one -> 70', () => {
    const withVideo = constructedListing({
      previews: [
        {
          device: 'iphone',
          deviceType: 'iphone_6_5',
          videoUrl: 'https://example.invalid/v.m3u8',
          posterUrl: null,
        },
      ],
      previewVideoUrl: 'https://example.invalid/v.m3u8',
    });
    expect(videoSection(withVideo, []).score).toBe(100);
    expect(
      videoSection(constructedListing(), [{ appName: 'A', iphoneCount: 0, hasVideo: true }]),
    ).toMatchObject({ score: 40 });
    expect(
      videoSection(constructedListing(), [{ appName: 'A', iphoneCount: 0, hasVideo: false }]).score,
    ).toBe(70);
  });
});
