/** Image formats Apple's image CDN serves for a template's `{f}`. */
export type TArtworkFormat = 'jpg' | 'png' | 'webp';

/** Options of {@link resolveArtworkUrl}. */
export interface TResolveArtworkOptions {
  /** Width in px; the recorded width of the artwork. */
  width: number;
  /** Height in px; the recorded height of the artwork. */
  height: number;
  /** Crop code for `{c}`; Apple's 'bb' (bounding box, no crop) by default. */
  crop?: string | null;
  /** Format for `{f}`; by default the format of the uploaded source file, else jpg. */
  format?: string | null;
}

const FORMATS: Record<string, TArtworkFormat> = {
  jpg: 'jpg',
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
};

function normaliseFormat(format: string | null | undefined): TArtworkFormat | null {
  return (format && FORMATS[format.toLowerCase()]) || null;
}

/**
 * The format of the file the developer uploaded, read from the path segment before the
 * template (`.../1_iOS_6.7.jpg/{w}x{h}{c}.{f}` -> 'jpg'), else null.
 */
export function sourceFormatOf(template: string): TArtworkFormat | null {
  const match = /\.([a-z0-9]+)\/[^/]*\{w\}/i.exec(template);
  return normaliseFormat(match?.[1]);
}

/**
 * Resolves an Apple image URL template (`.../{w}x{h}{c}.{f}`, as in the Media API and the 2025
 * page) into a real URL: `{w}`/`{h}` become the recorded pixel size, `{c}` the crop code
 * ('bb' by default) and `{f}` the format (the source file's format by default: png stays png,
 * jpg stays jpg; else jpg). Example: `.../shot.png/{w}x{h}{c}.{f}` with 392 x 696 ->
 * `.../shot.png/392x696bb.png`. A URL without placeholders is returned unchanged.
 */
export function resolveArtworkUrl(template: string, options: TResolveArtworkOptions): string {
  const format =
    normaliseFormat(options.format) ?? sourceFormatOf(template) ?? ('jpg' satisfies TArtworkFormat);
  return template
    .replace(/\{w\}/g, String(Math.round(options.width)))
    .replace(/\{h\}/g, String(Math.round(options.height)))
    .replace(/\{c\}/g, options.crop ?? 'bb')
    .replace(/\{f\}/g, format);
}

/**
 * Pixel size encoded in a resolved mzstatic URL's last segment (`.../392x696bb.png` ->
 * 392 x 696), as the lookup API's screenshot URLs carry it; null when absent.
 */
export function sizeFromImageUrl(url: string): { width: number; height: number } | null {
  const match = /\/(\d+)x(\d+)[a-z]*\.[a-z0-9]+(?:\?.*)?$/i.exec(url);
  if (!match) return null;
  return { width: Number(match[1]), height: Number(match[2]) };
}
