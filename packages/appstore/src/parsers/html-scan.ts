import { Parser } from 'htmlparser2';

/** One `<script>` element of a page: its attributes (lower-case names) and raw text. */
export interface TPageScript {
  attributes: Record<string, string>;
  text: string;
}

/** What the page parsers need from a product page's HTML, read in one pass. */
export interface TScannedPage {
  /** Text of `<title>` (entities decoded), or null. */
  title: string | null;
  /** `href` of `<link rel="canonical">`, or null. */
  canonicalUrl: string | null;
  /** `lang` of `<html>` (the page's language, e.g. 'ko', 'pt-BR', 'zh-Hant-TW'), or null. */
  lang: string | null;
  scripts: TPageScript[];
}

/**
 * Reads a page's `<title>`, canonical link, `<html lang>` and every `<script>` (attributes and raw
 * text) with htmlparser2 in one streaming pass, so layout detection and all parsers share one
 * scan of a ~1 MB page.
 * Script text is raw (HTML does not decode entities inside scripts).
 */
export function scanPage(html: string): TScannedPage {
  const scripts: TPageScript[] = [];
  let title: string | null = null;
  let canonicalUrl: string | null = null;
  let lang: string | null = null;
  let current: TPageScript | null = null;
  let inTitle = false;
  let titleText = '';
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'script') current = { attributes: { ...attributes }, text: '' };
        else if (name === 'html' && lang === null) lang = attributes.lang?.trim() || null;
        else if (name === 'link' && canonicalUrl === null) {
          if (attributes.rel?.toLowerCase() === 'canonical' && attributes.href) {
            canonicalUrl = attributes.href;
          }
        } else if (name === 'title' && title === null) {
          inTitle = true;
          titleText = '';
        }
      },
      ontext(data) {
        if (current) current.text += data;
        else if (inTitle) titleText += data;
      },
      onclosetag(name) {
        if (name === 'script' && current) {
          scripts.push(current);
          current = null;
        } else if (name === 'title' && inTitle) {
          inTitle = false;
          title = titleText;
        }
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return { title, canonicalUrl, lang, scripts };
}

/** `html` scanned, or the already scanned page as is. */
export function toScannedPage(html: string | TScannedPage): TScannedPage {
  return typeof html === 'string' ? scanPage(html) : html;
}

/** The first script whose attribute `name` equals `value` (case-insensitive value). */
export function findScript(
  page: TScannedPage,
  name: string,
  value: string,
): TPageScript | undefined {
  const wanted = value.toLowerCase();
  return page.scripts.find((s) => s.attributes[name]?.toLowerCase() === wanted);
}
