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
  /** Capture date part of the file name (e.g. `2026-06`; '' when the name has none); the latest one wins. */
  date: string;
  file: string;
}

/**
 * Recording file names: `<kind>_<cc>_<slug>_id<digits>[_<date>].<json|html>`
 * (fixtures/SOURCES.md): JSON for the API answers, HTML for product pages. Files that do not
 * match (mac-software and search recordings) are ignored.
 */
const RECORDING_NAME =
  /^(itunes-lookup|media-api|reviews-rss|page2025-trimmed|page2025)_([a-z]{2})_([a-z0-9][a-z0-9-]*)_id(\d+)(?:_([0-9][0-9-]*))?\.(json|html)$/;

/** Parses a recording file name, or null when it is not one the replay server serves. */
export function parseRecordingName(file: string): Omit<TRecording, 'file'> | null {
  const match = RECORDING_NAME.exec(path.basename(file));
  if (!match) return null;
  const kind = match[1] as TRecordingKind;
  const isPage = (PAGE_RECORDING_KINDS as readonly string[]).includes(kind);
  if (match[6] !== (isPage ? 'html' : 'json')) return null;
  return {
    kind,
    storefront: match[2]!,
    slug: match[3]!,
    appId: match[4]!,
    date: match[5] ?? '',
  };
}

/**
 * An index of a recordings folder by (kind, storefront, app id). Adding a recording means
 * adding a file: the folder is re-read whenever its modification time changes.
 */
export class FixtureIndex {
  private byKey = new Map<string, TRecording>();
  private contents = new Map<string, string>();
  private dirMtimeMs = -1;

  constructor(readonly dir: string) {
    this.refresh();
  }

  /**
   * Re-reads the folder listing if its modification time changed (or always, with `force`).
   * Throws when the folder cannot be read.
   */
  refresh(force = false): void {
    const mtime = statSync(this.dir).mtimeMs;
    if (!force && mtime === this.dirMtimeMs) return;
    const byKey = new Map<string, TRecording>();
    for (const file of readdirSync(this.dir)) {
      const parsed = parseRecordingName(file);
      if (!parsed) continue;
      const key = this.key(parsed.kind, parsed.storefront, parsed.appId);
      const existing = byKey.get(key);
      if (!existing || existing.date < parsed.date) {
        byKey.set(key, { ...parsed, file: path.join(this.dir, file) });
      }
    }
    this.byKey = byKey;
    const indexed = new Set([...byKey.values()].map((r) => r.file));
    for (const file of this.contents.keys()) if (!indexed.has(file)) this.contents.delete(file);
    this.dirMtimeMs = mtime;
  }

  private key(kind: TRecordingKind, storefront: string, appId: string): string {
    return `${kind}:${storefront.toLowerCase()}:${appId}`;
  }

  /** The latest recording of `kind` for the app in the storefront, or undefined. */
  find(kind: TRecordingKind, storefront: string, appId: string): TRecording | undefined {
    const key = this.key(kind, storefront, appId);
    this.refresh();
    if (!this.byKey.has(key)) {
      // File systems with coarse timestamps may not show a file added within the same tick.
      this.refresh(true);
    }
    return this.byKey.get(key);
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

  /** All indexed recordings, sorted by file name. */
  list(): TRecording[] {
    this.refresh();
    return [...this.byKey.values()].sort((a, b) => a.file.localeCompare(b.file));
  }
}
