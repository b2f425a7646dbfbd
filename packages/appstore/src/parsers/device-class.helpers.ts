import {
  DEVICE_CLASSES,
  type TDeviceClass,
  type TScreenshot,
  type TScreenshotSet,
  type TScreenshotsByDevice,
} from '@aso/contracts';

/**
 * Apple's display-size keys per device class, most preferred first: the set the product page
 * shows is the one for the largest display the developer uploaded (App Store Connect
 * "screenshot specifications"; e.g. `iphone_d74` is the 6.9"/6.7" set, `iphone_6_5` the 6.5",
 * `iphone6+` the 5.5").
 */
const PREFERRED_DEVICE_TYPES: Record<TDeviceClass, readonly string[]> = {
  iphone: ['iphone_d74', 'iphone_6_5', 'iphone_5_8', 'iphone6+', 'iphone6', 'iphone5', 'iphone'],
  ipad: ['ipadPro_2018', 'ipadPro', 'ipad_11', 'ipad_10_5', 'ipad'],
  mac: ['mac'],
  watch: ['appleWatch_2024', 'appleWatch_2022', 'appleWatch_2021', 'appleWatch_2018', 'appleWatch'],
  tv: ['appleTV'],
  vision: ['appleVisionPro'],
};

/**
 * Device class of an Apple display-size key (`iphone_6_5` -> iphone, `ipadPro_2018` -> ipad,
 * `appleWatch_2021` -> watch, `appleTV` -> tv, `appleVisionPro` -> vision, `mac` -> mac) or of a
 * 2025-layout media shelf key (`product_media_phone_...`, `..._pad_`, `..._mac_`, `..._watch_`,
 * `..._tv_`, `..._vision_`); null when
 * unknown.
 */
export function deviceClassOf(key: string): TDeviceClass | null {
  const k = key.toLowerCase().replace(/^product_media_/, '');
  if (k.startsWith('iphone') || k.startsWith('phone')) return 'iphone';
  if (k.startsWith('ipad') || k.startsWith('pad')) return 'ipad';
  if (k.startsWith('mac') || k.startsWith('desktop')) return 'mac';
  if (k.startsWith('applewatch') || k.startsWith('watch')) return 'watch';
  if (k.startsWith('appletv') || k.startsWith('tv')) return 'tv';
  if (k.startsWith('applevision') || k.startsWith('vision') || k.startsWith('realitydevice')) {
    return 'vision';
  }
  return null;
}

function rank(deviceClass: TDeviceClass, deviceType: string): number {
  const index = PREFERRED_DEVICE_TYPES[deviceClass].indexOf(deviceType);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

function area(shots: TScreenshot[]): number {
  const first = shots[0];
  return first ? first.width * first.height : 0;
}

/**
 * Order of preference of two display-size keys of one class: known keys in Apple's order,
 * unknown keys after them by larger pixel area, then by more screenshots.
 */
export function compareDeviceTypes(
  deviceClass: TDeviceClass,
  a: { deviceType: string; screenshots: TScreenshot[] },
  b: { deviceType: string; screenshots: TScreenshot[] },
): number {
  return (
    rank(deviceClass, a.deviceType) - rank(deviceClass, b.deviceType) ||
    area(b.screenshots) - area(a.screenshots) ||
    b.screenshots.length - a.screenshots.length
  );
}

/**
 * Picks, per device class, the screenshot set the store shows (see
 * {@link compareDeviceTypes}) from all sets found. Empty sets are ignored.
 */
export function pickScreenshotSets(sets: TScreenshotSet[]): TScreenshotsByDevice {
  const result: TScreenshotsByDevice = {};
  for (const deviceClass of DEVICE_CLASSES) {
    const candidates = sets
      .filter((s) => s.screenshots.length > 0 && deviceClassOf(s.deviceType) === deviceClass)
      .sort((a, b) => compareDeviceTypes(deviceClass, a, b));
    if (candidates[0]) result[deviceClass] = candidates[0];
  }
  return result;
}

/** Sort key of a preview video: device class order, then the class's display-size order. */
export function previewOrder(device: TDeviceClass, deviceType: string): number {
  return DEVICE_CLASSES.indexOf(device) * 1000 + Math.min(rank(device, deviceType), 999);
}
