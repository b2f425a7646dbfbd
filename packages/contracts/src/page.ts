/**
 * Lists and pages (docs/product.md#lists-and-pages): every list call takes `?limit=` (1 to
 * `LIST_PAGE_MAX`, default `LIST_PAGE_DEFAULT`) and `?cursor=` (opaque: only ever the one the
 * server named), and names its next page in a `Link: <...>; rel="next"` header (RFC 8288), absent
 * on the last page. The body is the list's usual answer (an array, or an object with `items`).
 */

/** Default of the gateway's `LIST_PAGE_DEFAULT`: items of a page without `?limit=`. */
export const LIST_PAGE_DEFAULT_SIZE = 50;
/** Default of the gateway's `LIST_PAGE_MAX`: the largest `?limit=` a list takes. */
export const LIST_PAGE_MAX_SIZE = 200;

/**
 * The address of the next page named by a `Link` header value (`<url>; rel="next"`, among
 * other links or parameters; RFC 8288 section 3), or null when there is none (the last page,
 * or no header).
 */
export function nextPageFromLink(link: string | null | undefined): string | null {
  if (!link) return null;
  for (const m of link.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2] ?? '');
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (relations.includes('next')) return m[1] ?? null;
  }
  return null;
}
