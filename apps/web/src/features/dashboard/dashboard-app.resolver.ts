/**
 * Which watched listing a dashboard is about. App Store Connect exports name the app and the
 * territory but not the App Store id, so the dashboard takes, in order: the listing chosen by
 * the user (saved with the dashboard, or remembered in this browser for the dataset); else the
 * one watched `mine` listing whose name and storefront match the export's app name and
 * territory; else none, and the "Change impact" card asks the user. Figures imported from App
 * Store Connect carry the app's Apple id: {@link resolveWatchedAppById}. Pure.
 */
import type { TWatchItem } from '@aso/contracts';
import { territoryMatchesStorefront } from '../watchlist/watch.helpers';
import type { TOpenDashboard } from './dashboard.store';

function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * How the dashboard's listing was found: chosen by the user, matched by the export's name and
 * territory, or by the Apple id of imported figures.
 */
export type TWatchedAppHow = 'chosen' | 'matched' | 'by-id';

/**
 * The watched `mine` listing the data is about (see the module comment), with how it was found,
 * or null. `candidates` are the user's `mine` listings, those in the export's territory first.
 */
export function resolveWatchedApp(
  current: Pick<TOpenDashboard, 'appName' | 'territory' | 'watchedApp' | 'downloadId'>,
  watchlist: readonly TWatchItem[],
  remembered: TOpenDashboard['watchedApp'] = null,
): { item: TWatchItem | null; how: TWatchedAppHow | null; candidates: TWatchItem[] } {
  const inTerritory = (w: TWatchItem) =>
    current.territory !== null && territoryMatchesStorefront(current.territory, w.storefront);
  const candidates = watchlist
    .filter((w) => w.role === 'mine')
    .sort((a, b) => Number(inTerritory(b)) - Number(inTerritory(a)));
  const explicit = current.watchedApp ?? remembered;
  if (explicit) {
    const item = candidates.find(
      (w) => w.appId === explicit.appId && w.storefront === explicit.storefront,
    );
    if (item) return { item, how: 'chosen', candidates };
  }
  const matches = candidates.filter(
    (w) =>
      inTerritory(w) &&
      current.appName !== null &&
      w.appName !== null &&
      fold(w.appName) === fold(current.appName),
  );
  if (matches.length === 1) return { item: matches[0]!, how: 'matched', candidates };
  return { item: null, how: null, candidates };
}

/**
 * The watched `mine` listing of figures imported for the app `appId`: its listings are the
 * user's `mine` listings of that Apple id (one per storefront, the `territory` filter's
 * first). In order: the storefront the user chose; the territory filter's; the only one;
 * else none, and the "Change impact" card asks which (`candidates`).
 */
export function resolveWatchedAppById(
  appId: string,
  territory: string | null,
  watchlist: readonly TWatchItem[],
  chosen: TOpenDashboard['watchedApp'] = null,
): { item: TWatchItem | null; how: TWatchedAppHow | null; candidates: TWatchItem[] } {
  const inTerritory = (w: TWatchItem) =>
    territory !== null && territoryMatchesStorefront(territory, w.storefront);
  const candidates = watchlist
    .filter((w) => w.role === 'mine' && w.appId === appId)
    .sort((a, b) => Number(inTerritory(b)) - Number(inTerritory(a)));
  const explicit = chosen && candidates.find((w) => w.storefront === chosen.storefront);
  if (explicit) return { item: explicit, how: 'chosen', candidates };
  const matches = candidates.filter(inTerritory);
  if (matches.length === 1) return { item: matches[0]!, how: 'by-id', candidates };
  if (candidates.length === 1) return { item: candidates[0]!, how: 'by-id', candidates };
  return { item: null, how: null, candidates };
}
