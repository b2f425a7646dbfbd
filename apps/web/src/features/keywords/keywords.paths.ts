/** Paths of the keyword screens (imported by the shell and other features, so kept tiny). */

/** Path of the Keywords page of an app in a storefront. */
export function keywordsPath(appId: string, storefront: string): string {
  return `/apps/${encodeURIComponent(appId)}/keywords?storefront=${encodeURIComponent(storefront)}`;
}

/** Whether a pathname is one of the keyword screens (`/keywords`, `/apps/{id}/keywords`). */
export function isKeywordsPath(pathname: string): boolean {
  return pathname === '/keywords' || /^\/apps\/[^/]+\/keywords\/?$/.test(pathname);
}
