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

/** One recorded search answer: the term and storefront it answers. */
export interface TSearchRecording {
  storefront: string;
  /** The term in its file-name form: lower case, words joined by `-` (`music-player`). */
  termSlug: string;
  date: string;
  constructed: boolean;
  file: string;
}

/**
 * Search recording file names: `[constructed-]itunes-search_<cc>_<label>[_<date>].json`. The
 * term is the label's `term-<words>` part (`mac-software_term-slack_39-results`: "slack"), or
 * for a real recording named by its category, {@link SEARCH_LABEL_TERMS}.
 */
const SEARCH_RECORDING_NAME =
  /^(constructed-)?itunes-search_([a-z]{2})_([a-z0-9][a-z0-9_-]*?)(?:_(\d{4}-\d{2}(?:-\d{2})?))?\.json$/;

/**
 * Terms of real search recordings whose name does not spell the term. The "travel category
 * term" answer was recorded for a Travel search (its recorder's notes name the category, not
 * the words); this product replays it for the term "travel".
 */
const SEARCH_LABEL_TERMS: Record<string, string> = {
  'travel-category-term_18-results': 'travel',
};

/** The file-name form of a term: lower case, runs of anything but letters and digits as `-`. */
export function termSlug(term: string): string {
  return term
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
}

/** Parses a search recording's file name, or null when it is not one. */
export function parseSearchRecordingName(file: string): Omit<TSearchRecording, 'file'> | null {
  const match = SEARCH_RECORDING_NAME.exec(path.basename(file));
  if (!match) return null;
  const label = match[3]!;
  const named = /(?:^|_)term-([a-z0-9-]+?)(?:_|$)/.exec(label)?.[1];
  const termSlugOf = named ?? SEARCH_LABEL_TERMS[label];
  if (!termSlugOf) return null;
  return {
    storefront: match[2]!,
    termSlug: termSlug(termSlugOf),
    date: match[4] ?? '',
    constructed: match[1] !== undefined,
  };
}

/**
 * Search hints recording file names: `[constructed-]search-hints_<cc>_term-<words>[_<date>].xml`
 * (the store's XML property list of suggestions for the term). None is real: every one is
 * constructed for tests (the store's hints endpoint has answered nothing for years).
 */
const HINTS_RECORDING_NAME =
  /^(constructed-)?search-hints_([a-z]{2})_term-([a-z0-9-]+?)(?:_(\d{4}-\d{2}(?:-\d{2})?))?\.xml$/;

/** Parses a search hints recording's file name, or null when it is not one. */
export function parseHintsRecordingName(file: string): Omit<TSearchRecording, 'file'> | null {
  const match = HINTS_RECORDING_NAME.exec(path.basename(file));
  if (!match) return null;
  return {
    storefront: match[2]!,
    termSlug: termSlug(match[3]!),
    date: match[4] ?? '',
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
  /** Search recordings per `<cc>:<term slug>`, oldest first. */
  private searches = new Map<string, TSearchRecording[]>();
  /** Search hints recordings per `<cc>:<term slug>`, oldest first. */
  private hints = new Map<string, TSearchRecording[]>();
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
    const searches = new Map<string, TSearchRecording[]>();
    const hints = new Map<string, TSearchRecording[]>();
    for (const dir of this.dirs) {
      for (const file of readdirSync(dir)) {
        const search = parseSearchRecordingName(file);
        const hint = search ? null : parseHintsRecordingName(file);
        const termRecording = search ?? hint;
        if (termRecording) {
          const into = search ? searches : hints;
          const key = `${termRecording.storefront}:${termRecording.termSlug}`;
          into.set(key, [
            ...(into.get(key) ?? []),
            { ...termRecording, file: path.join(dir, file) },
          ]);
          continue;
        }
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
    for (const list of [...searches.values(), ...hints.values()]) {
      list.sort((a, b) => a.date.localeCompare(b.date) || a.file.localeCompare(b.file));
    }
    this.byKey = byKey;
    this.searches = searches;
    this.hints = hints;
    const indexed = new Set(
      [
        ...[...byKey.values()].flat(),
        ...[...searches.values()].flat(),
        ...[...hints.values()].flat(),
      ].map((r) => r.file),
    );
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

  /**
   * The search recording answering `term` in `storefront` (matched by {@link termSlug}): the
   * latest, or with `asOf` the latest captured on or before that day; undefined when none.
   */
  findSearch(storefront: string, term: string, asOf?: string | null): TSearchRecording | undefined {
    this.refresh();
    const list = this.searches.get(`${storefront.toLowerCase()}:${termSlug(term)}`) ?? [];
    const eligible = asOf ? list.filter((r) => recordedBy(r.date, asOf)) : list;
    return eligible[eligible.length - 1];
  }

  /**
   * The search hints recording answering `term` in `storefront` (matched by
   * {@link termSlug}): the latest, or with `asOf` the latest captured on or before that day;
   * undefined when none.
   */
  findHints(storefront: string, term: string, asOf?: string | null): TSearchRecording | undefined {
    this.refresh();
    const list = this.hints.get(`${storefront.toLowerCase()}:${termSlug(term)}`) ?? [];
    const eligible = asOf ? list.filter((r) => recordedBy(r.date, asOf)) : list;
    return eligible[eligible.length - 1];
  }

  /** Every indexed search hints recording, sorted by file name. */
  listHints(): TSearchRecording[] {
    this.refresh();
    return [...this.hints.values()].flat().sort((a, b) => a.file.localeCompare(b.file));
  }

  /** Every indexed search recording, sorted by file name. */
  listSearches(): TSearchRecording[] {
    this.refresh();
    return [...this.searches.values()].flat().sort((a, b) => a.file.localeCompare(b.file));
  }

  /** The recording's text, verbatim (cached after the first read). */
  read(recording: { file: string }): string {
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
