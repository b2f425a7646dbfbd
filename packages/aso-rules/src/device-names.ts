/**
 * What Apple calls the display sizes behind the store's screenshot keys (App Store Connect
 * Help, Screenshot specifications,
 * https://developer.apple.com/help/app-store-connect/reference/screenshot-specifications):
 * the product page's keys ('iphone_d74', 'iphone_6_5', 'ipadPro_2018', ...) are never shown
 * to users as they are.
 */
const DISPLAY_SIZES: Record<string, string> = {
  iphone_d74: '6.9-inch iPhone display',
  iphone_d73: '6.7-inch iPhone display',
  iphone_d63: '6.3-inch iPhone display',
  iphone_d61: '6.1-inch iPhone display',
  iphone_6_5: '6.5-inch iPhone display',
  iphone_5_8: '5.8-inch iPhone display',
  'iphone6+': '5.5-inch iPhone display',
  iphone6: '4.7-inch iPhone display',
  iphone5: '4-inch iPhone display',
  iphone: '3.5-inch iPhone display',
  ipadPro_2018: '12.9-inch iPad display',
  ipadPro: '12.9-inch iPad display (2nd generation)',
  ipad_13: '13-inch iPad display',
  ipad_11: '11-inch iPad display',
  ipad_10_5: '10.5-inch iPad display',
  ipad: '9.7-inch iPad display',
  appleTV: 'Apple TV',
  mac: 'Mac',
  appleVisionPro: 'Apple Vision Pro',
  appleWatch_2024: 'Apple Watch Series 10',
  appleWatch_2022: 'Apple Watch Ultra',
  appleWatch_2021: 'Apple Watch Series 7',
  appleWatch_2018: 'Apple Watch Series 4',
  appleWatch: 'Apple Watch',
  'lookup:iphone': 'iPhone screenshots',
  'lookup:ipad': 'iPad screenshots',
  'lookup:tv': 'Apple TV screenshots',
  'lookup:mac': 'Mac screenshots',
};

/**
 * Apple's name for a screenshot set's display-size key ('iphone_d74' -> '6.9-inch iPhone
 * display'); an unknown key gives a generic name of its device family, never the raw key.
 */
export function displaySizeName(deviceType: string): string {
  const known = DISPLAY_SIZES[deviceType];
  if (known) return known;
  const lower = deviceType.toLowerCase();
  if (lower.includes('ipad')) return 'iPad display';
  if (lower.includes('watch')) return 'Apple Watch';
  if (lower.includes('tv')) return 'Apple TV';
  if (lower.includes('mac')) return 'Mac';
  if (lower.includes('vision')) return 'Apple Vision Pro';
  return 'iPhone display';
}

/** Names of the store's device classes as Apple writes them. */
export const DEVICE_CLASS_NAMES = {
  iphone: 'iPhone',
  ipad: 'iPad',
  mac: 'Mac',
  watch: 'Apple Watch',
  tv: 'Apple TV',
  vision: 'Apple Vision Pro',
} as const;
