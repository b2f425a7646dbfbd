import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Kinds of recordings the replay server serves: JSON answers (`itunes-lookup`, `media-api`,
 * `reviews-rss`) and product pages as Apple served them (`page2025`, and `page2025-trimmed`
 * for pages their recorder cut down), both HTML.
 */
export type TRecordingKind =
  'itunes-lookup' | 'media-api' | 'reviews-rss' | 'page2025' | 'page2025-trimmed';

/** The HTML page kinds, in the order the replay server prefers them for a product page. */
export const PAGE_RECORDING_KINDS = ['page2025', 'page2025-trimmed'] as const;

/** One recorded store response, identified by its file name. */
export interface TRecording {
  kind: TRecordingKind;
  storefront: string;
  slug: string;
  appId: string;
  /**
   * Capture date part of the file name (`2026-06`, `2026-06-24`; '' when the name has none).
   * The newest one is served; with an as-of day, the newest dated on or before it.
   */
  date: string;
  /** True for a recording made by hand for tests (`constructed-` file name prefix), not captured. */
  constructed: boolean;
  file: string;
}

/**
 * Recording file names: `[constructed-]<kind>_<cc>_<slug>_id<digits>[_<date>].<json|html>`
 * (fixtures/SOURCES.md): JSON for the API answers, HTML for product pages; the `constructed-`
 * prefix marks data made by hand for tests. Files that do not match (mac-software and search
 * recordings) are ignored.
 */
const RECORDING_NAME =
  /^(constructed-)?(itunes-lookup|media-api|reviews-rss|page2025-trimmed|page2025)_([a-z]{2})_([a-z0-9][a-z0-9-]*)_id(\d+)(?:_([0-9][0-9-]*))?\.(json|html)$/;

/** Parses a recording file name, or null when it is not one the replay server serves. */
export function parseRecordingName(file: string): Omit<TRecording, 'file'> | null {
  const match = RECORDING_NAME.exec(path.basename(file));
  if (!match) return null;
  const kind = match[2] as TRecordingKind;
  const isPage = (PAGE_RECORDING_KINDS as readonly string[]).includes(kind);
  if (match[7] !== (isPage ? 'html' : 'json')) return null;
  return {
    kind,
    storefront: match[3]!,
    slug: match[4]!,
    appId: match[5]!,
    date: match[6] ?? '',
    constructed: match[1] !== undefined,
  };
}

/** An as-of day: `YYYY-MM-DD`. */
export const AS_OF_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * True when a recording dated `date` was captured on or before day `asOf` (`YYYY-MM-DD`). A
 * date of a month (`2026-06`) or a year counts from its first day; an undated recording counts
 * as older than every dated one, so it is served when no dated one is.
 */
export function recordedBy(date: string, asOf: string): boolean {
  return date <= asOf;
}

/**
 * An index of one or more recordings folders by (kind, storefront, app id), every capture
 * date kept. Adding a recording means adding a file: a folder is re-read whenever its
 * modification time changes.
 */
export class FixtureIndex {
  /** Per key, the recordings oldest first (undated first). */
  private byKey = new Map<string, TRecording[]>();
  private contents = new Map<string, string>();
  private mtimes = '';
  readonly dirs: readonly string[];

  constructor(dirs: string | readonly string[]) {
    this.dirs = typeof dirs === 'string' ? [dirs] : [...dirs];
    this.refresh();
  }

  /**
   * Re-reads the folder listings if a modification time changed (or always, with `force`).
   * Throws when a folder cannot be read.
   */
  refresh(force = false): void {
    const mtimes = this.dirs.map((d) => statSync(d).mtimeMs).join(',');
    if (!force && mtimes === this.mtimes) return;
    const byKey = new Map<string, TRecording[]>();
    for (const dir of this.dirs) {
      for (const file of readdirSync(dir)) {
        const parsed = parseRecordingName(file);
        if (!parsed) continue;
        const key = this.key(parsed.kind, parsed.storefront, parsed.appId);
        const list = byKey.get(key) ?? [];
        list.push({ ...parsed, file: path.join(dir, file) });
        byKey.set(key, list);
      }
    }
    for (const list of byKey.values()) {
      list.sort((a, b) => a.date.localeCompare(b.date) || a.file.localeCompare(b.file));
    }
    this.byKey = byKey;
    const indexed = new Set([...byKey.values()].flat().map((r) => r.file));
    for (const file of this.contents.keys()) if (!indexed.has(file)) this.contents.delete(file);
    this.mtimes = mtimes;
  }

  private key(kind: TRecordingKind, storefront: string, appId: string): string {
    return `${kind}:${storefront.toLowerCase()}:${appId}`;
  }

  /**
   * The recording of `kind` for the app in the storefront: the latest one, or with `asOf`
   * (`YYYY-MM-DD`) the latest captured on or before that day (see {@link recordedBy});
   * undefined when there is none.
   */
  find(
    kind: TRecordingKind,
    storefront: string,
    appId: string,
    asOf?: string | null,
  ): TRecording | undefined {
    const key = this.key(kind, storefront, appId);
    this.refresh();
    if (!this.byKey.has(key)) {
      // File systems with coarse timestamps may not show a file added within the same tick.
      this.refresh(true);
    }
    const list = this.byKey.get(key) ?? [];
    const eligible = asOf ? list.filter((r) => recordedBy(r.date, asOf)) : list;
    return eligible[eligible.length - 1];
  }

  /** The recording's text, verbatim (cached after the first read). */
  read(recording: TRecording): string {
    let text = this.contents.get(recording.file);
    if (text === undefined) {
      text = readFileSync(recording.file, 'utf8');
      this.contents.set(recording.file, text);
    }
    return text;
  }

  /** All indexed recordings (every capture date), sorted by file name. */
  list(): TRecording[] {
    this.refresh();
    return [...this.byKey.values()].flat().sort((a, b) => a.file.localeCompare(b.file));
  }
}
