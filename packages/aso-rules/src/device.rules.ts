import type { TAppListing, TDeviceClass, TRuleOutcome, TSectionAnalysis } from '@aso/contracts';
import { DEVICE_CLASS_NAMES } from './device-names';
import { CELLULAR_DOWNLOAD_LIMIT_BYTES } from './limits.constants';
import { failed, passed, notJudgedSection } from './rule-outcome.helpers';
import { scoreOf } from './audit.scoring';
import { listText } from './text.helpers';

/**
 * A size in bytes as iOS shows it: decimal megabytes with at most one decimal ('279.8 MB',
 * '200 MB'), or gigabytes with at most two from 1,000 MB ('1.25 GB').
 */
export function formatBytes(bytes: number): string {
  const trim = (text: string) => text.replace(/\.0+$/, '');
  if (bytes >= 1e9) return `${trim((bytes / 1e9).toFixed(2))} GB`;
  return `${trim((bytes / 1e6).toFixed(1))} MB`;
}

/**
 * App size section, rule `appSize.cellular-limit`: the download size against Apple's 200 MB
 * cellular download limit. Not judged when no size could be read.
 */
export function appSizeSection(
  listing: Pick<TAppListing, 'fileSizeBytes'>,
  competitors: ReadonlyArray<Pick<TAppListing, 'appName' | 'fileSizeBytes'>> = [],
): TSectionAnalysis {
  const size = listing.fileSizeBytes;
  if (size === null || size === undefined) {
    return notJudgedSection(
      'appSize',
      'Not judged: the download size could not be read from the store.',
      'The download size could not be read.',
    );
  }
  const limit = formatBytes(CELLULAR_DOWNLOAD_LIMIT_BYTES);
  const facts = { fileSizeBytes: size, limitBytes: CELLULAR_DOWNLOAD_LIMIT_BYTES };
  const rules: TRuleOutcome[] = [];
  const improvements: string[] = [];
  const parts = [`The download is ${formatBytes(size)}.`];
  if (size <= CELLULAR_DOWNLOAD_LIMIT_BYTES) {
    rules.push(passed('appSize.cellular-limit', `${formatBytes(size)}, within ${limit}.`, facts));
    parts.push(
      `It fits Apple's ${limit} cellular download limit, so it downloads over cellular without a prompt.`,
    );
  } else {
    rules.push(failed('appSize.cellular-limit', `${formatBytes(size)}, over ${limit}.`, facts));
    parts.push(
      `It is over Apple's ${limit} cellular download limit: by default an iPhone asks before downloading it over cellular, and some shoppers wait for Wi-Fi and forget.`,
    );
    improvements.push(
      `Bring the download under ${limit} (app thinning, on-demand resources, smaller assets).`,
    );
  }
  const known = competitors.filter((c) => typeof c.fileSizeBytes === 'number');
  if (known.length > 0)
    parts.push(
      `Competitors: ${known.map((c) => `${c.appName} ${formatBytes(c.fileSizeBytes!)}`).join(', ')}.`,
    );
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: 'high',
    rules,
    textSource: 'rules',
  };
}

const OPTIONAL: ReadonlyArray<[TDeviceClass, string, string]> = [
  ['ipad', 'compatibility.ipad', 'Make the app run on iPad: iPad shoppers only see apps that do.'],
  [
    'watch',
    'compatibility.apple-watch',
    'Consider an Apple Watch app: it is listed on the watch App Store too.',
  ],
  [
    'mac',
    'compatibility.mac',
    'Allow the iPhone and iPad app on Apple silicon Macs in App Store Connect.',
  ],
  ['vision', 'compatibility.vision', 'Allow the app on Apple Vision Pro in App Store Connect.'],
];

/**
 * Compatibility section, rules `compatibility.*`: the device classes the store lists the app
 * for (iPad, Apple Watch, Mac, Apple Vision Pro) and the minimum iOS version. Not judged when
 * the store's device list could not be read.
 */
export function compatibilitySection(
  listing: Pick<TAppListing, 'supportedDevices' | 'minimumOsVersion'>,
): TSectionAnalysis {
  const devices = listing.supportedDevices ?? [];
  if (devices.length === 0) {
    return notJudgedSection(
      'compatibility',
      'Not judged: the devices the app runs on could not be read from the store.',
      'The device list could not be read.',
    );
  }
  const names = devices.map((d) => DEVICE_CLASS_NAMES[d]);
  const parts = [`The store lists the app for ${listText(names)}.`];
  if (listing.minimumOsVersion) parts.push(`It requires iOS ${listing.minimumOsVersion} or later.`);
  const rules: TRuleOutcome[] = [];
  const improvements: string[] = [];
  const facts = { devices: names.join(', ') };
  for (const [device, id, advice] of OPTIONAL) {
    if (devices.includes(device))
      rules.push(passed(id, `${DEVICE_CLASS_NAMES[device]} is listed.`, facts));
    else {
      rules.push(failed(id, `${DEVICE_CLASS_NAMES[device]} is not listed.`, facts));
      improvements.push(advice);
    }
  }
  return {
    analysis: parts.join(' '),
    improvements,
    score: scoreOf(rules),
    confidence: 'high',
    rules,
    textSource: 'rules',
  };
}
