/**
 * State of the dashboard tab that must outlive the tab's component (the shell unmounts tabs it does
 * not show): the open dataset, whether the upload panel shows, the applied range and the selected
 * metrics, and the imported App Store Connect app shown instead when that source is chosen (docs/product.md#states-and-transitions: "Dashboard tab", "Chart card states", "Date
 * range"). A tiny external store read with `useSyncExternalStore`; no echarts here, so the sidebar
 * can use it without loading the dashboard bundle.
 */
import type { TDateRange } from '@aso/contracts';
import { useSyncExternalStore } from 'react';
import { onLogout } from '@/features/auth/session-events';

/** The dataset the dashboard shows. */
export interface TOpenDashboard {
  downloadId: string;
  appName: string | null;
  territory: string | null;
  headers: string[];
  totalRows: number;
  /** Id of the saved dashboard it was opened from; null for a fresh upload. */
  savedId: string | null;
  /** Saved dashboard name, when opened from one. */
  name: string | null;
  /** What the merge said about the files (e.g. that it swapped them); absent when reopened. */
  notices?: string[];
  /**
   * The watched `mine` listing the data is about, as the user chose it (saved with the
   * dashboard); null or absent while not chosen.
   */
  watchedApp?: TWatchedAppRef | null;
}

/**
 * A dashboard on the figures imported from App Store Connect for one app of a connection,
 * with its own filters and view (the uploads' dataset, if any, stays open beside it).
 */
export interface TOpenAscDashboard {
  connectionId: string;
  /** The app's Apple id: the watched listings of the same id are its listings. */
  appId: string;
  appName: string;
  /** Territory and device filters; null: all. */
  territory: string | null;
  device: string | null;
  /** The applied range; null means the data's default range. */
  appliedRange: TDateRange | null;
  /** Selected metric columns; null means the default. */
  selectedMetrics: string[] | null;
  /** Id and name of the saved dashboard it was opened from or saved as; null while unsaved. */
  savedId: string | null;
  name: string | null;
  /** Which storefront's listing of the app "Change impact" reads, when the user chose one. */
  watchedApp: TWatchedAppRef | null;
}

/** A watched listing by app id and storefront. */
export interface TWatchedAppRef {
  appId: string;
  storefront: string;
}

/** The whole store. */
export interface TDashboardState {
  current: TOpenDashboard | null;
  /** The upload panel shows by default and after 'generate new dashboard'. */
  showUpload: boolean;
  /** The applied range; null means the dataset's default range. */
  appliedRange: TDateRange | null;
  /** Selected metric columns; null means the default ('Total Downloads'). */
  selectedMetrics: string[] | null;
  /** The imported app shown instead of the uploads; null: the uploads are shown. */
  asc: TOpenAscDashboard | null;
}

const INITIAL: TDashboardState = {
  current: null,
  showUpload: true,
  appliedRange: null,
  selectedMetrics: null,
  asc: null,
};

let state: TDashboardState = INITIAL;
const listeners = new Set<() => void>();

function set(next: TDashboardState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current state (a new object after each change). */
export function getDashboardState(): TDashboardState {
  return state;
}

/** React hook reading the store. */
export function useDashboardState(): TDashboardState {
  return useSyncExternalStore(subscribe, getDashboardState, getDashboardState);
}

/**
 * Opens a dataset (after a merge or from a saved dashboard): hides the upload panel and applies
 * `view` (a saved dashboard's range and metrics), or the dataset's defaults.
 */
export function openDataset(
  dashboard: TOpenDashboard,
  view: { appliedRange?: TDateRange | null; selectedMetrics?: string[] | null } = {},
): void {
  set({
    current: dashboard,
    showUpload: false,
    appliedRange: view.appliedRange ?? null,
    selectedMetrics: view.selectedMetrics ?? null,
    asc: null,
  });
}

/**
 * Shows the imported figures of one app (the source choice, or a saved dashboard on them).
 * `dashboard` gives what is known; the rest starts at the defaults (all territories and
 * devices, the data's default range and metrics, unsaved).
 */
export function openAscDashboard(
  dashboard: Pick<TOpenAscDashboard, 'connectionId' | 'appId' | 'appName'> &
    Partial<TOpenAscDashboard>,
): void {
  set({
    ...state,
    asc: {
      territory: null,
      device: null,
      appliedRange: null,
      selectedMetrics: null,
      savedId: null,
      name: null,
      watchedApp: null,
      ...dashboard,
    },
  });
}

/** Changes the open imported dashboard (its filters, range, metrics, saved id or listing). */
export function updateAscDashboard(patch: Partial<TOpenAscDashboard>): void {
  if (state.asc) set({ ...state, asc: { ...state.asc, ...patch } });
}

/** Back to the uploads (the dataset open before, if any). */
export function showUploads(): void {
  if (state.asc) set({ ...state, asc: null });
}

/** 'generate new dashboard': shows the upload panel again; the open dataset stays below it. */
export function showUploadPanel(): void {
  set({ ...state, showUpload: true });
}

/** Hides the upload panel again while a dataset is open. */
export function hideUploadPanel(): void {
  if (state.current) set({ ...state, showUpload: false });
}

/** Applies a date range (the picker's Apply). */
export function applyRange(range: TDateRange): void {
  set({ ...state, appliedRange: { start: range.start, end: range.end } });
}

/** Sets the selected metrics. */
export function setSelectedMetrics(metrics: string[]): void {
  set({ ...state, selectedMetrics: metrics });
}

/** Marks the open dataset as saved under `savedId` / `name`. */
export function markSaved(savedId: string, name: string): void {
  if (!state.current) return;
  set({ ...state, current: { ...state.current, savedId, name } });
}

const WATCHED_APP_KEY = 'aso.dashboardWatchedApp.';

/**
 * Sets which watched listing the open dataset is about (null: none), remembered in this
 * browser per dataset so that an unsaved dashboard keeps it too.
 */
export function setWatchedApp(app: TWatchedAppRef | null): void {
  if (!state.current) return;
  try {
    const key = WATCHED_APP_KEY + state.current.downloadId;
    if (app) localStorage.setItem(key, JSON.stringify(app));
    else localStorage.removeItem(key);
  } catch {
    // Storage full or refused: the choice still holds for this visit.
  }
  set({ ...state, current: { ...state.current, watchedApp: app } });
}

/** The listing remembered for a dataset in this browser, or null. */
export function rememberedWatchedApp(downloadId: string): TWatchedAppRef | null {
  try {
    const raw = localStorage.getItem(WATCHED_APP_KEY + downloadId);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<TWatchedAppRef>;
    return typeof value.appId === 'string' && typeof value.storefront === 'string'
      ? { appId: value.appId, storefront: value.storefront }
      : null;
  } catch {
    return null;
  }
}

/** Forgets the saved id of a deleted dashboard (the dataset or imported app stays open). */
export function forgetSaved(savedId: string): void {
  if (state.asc?.savedId === savedId) {
    set({ ...state, asc: { ...state.asc, savedId: null, name: null } });
  }
  if (state.current?.savedId === savedId) {
    set({ ...state, current: { ...state.current, savedId: null, name: null } });
  }
}

/** The id of the saved dashboard on screen in the dashboard tab, or null. */
export function openSavedId(s: TDashboardState): string | null {
  return s.asc ? s.asc.savedId : (s.current?.savedId ?? null);
}

/** Back to the initial state (sign-out). */
export function resetDashboardState(): void {
  set(INITIAL);
}

// Another user may sign in next in this tab: forget the open dataset on logout.
onLogout(resetDashboardState);
