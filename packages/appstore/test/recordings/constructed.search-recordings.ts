/**
 * CONSTRUCTED test data, not recordings: writes the `constructed-itunes-search_*` and
 * `constructed-search-hints_*` files of this folder, iTunes Search API answers (`entity=software`) for a few terms in the US storefront in
 * which the recorded apps (Spotify, TikTok, Instagram, Rivian, To Do List Widget) and the
 * constructed Calm Notes sit at known positions ({@link CONSTRUCTED_SEARCHES}), so ranks can be
 * tested and shown offline. Every value other than the apps' ids and names is invented; the
 * other results are invented apps (ids 64501000xx). Shapes follow Apple's Search API answer
 * (three leading blank lines, `{resultCount, results}`).
 *
 * Regenerate with
 * `pnpm exec tsx packages/appstore/test/recordings/constructed.search-recordings.ts`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The recorded apps placed in the constructed answers. */
export const SEARCH_APPS = {
  spotify: { id: '324684580', name: 'Spotify: Music and Podcasts', dev: 'Spotify' },
  tiktok: { id: '835599320', name: 'TikTok - Videos, Shop & LIVE', dev: 'TikTok Ltd.' },
  instagram: { id: '389801252', name: 'Instagram', dev: 'Instagram, Inc.' },
  rivian: { id: '1570215232', name: 'Rivian', dev: 'Rivian' },
  todo: { id: '1585508533', name: 'To Do List Widget - Simple', dev: 'Amit Verma' },
  calm: { id: '6450000001', name: 'Calm Notes: Journal & Mood', dev: 'Calm Notes Studio' },
} as const;

type TAppKey = keyof typeof SEARCH_APPS;

/**
 * Each constructed answer: the term, how many results, where each placed app is (1-based rank
 * among the iOS apps), and the answer's traps: a Mac app listed first (`macFirst`, takes no
 * rank) and the first placed app listed a second time near the end (`duplicate`).
 */
export const CONSTRUCTED_SEARCHES: ReadonlyArray<{
  term: string;
  count: number;
  placed: Partial<Record<TAppKey, number>>;
  macFirst?: boolean;
  duplicate?: boolean;
  /** Capture day (default 2026-06-01): a later day of a term is its answer after a move. */
  day?: string;
}> = [
  { term: 'music', count: 40, placed: { spotify: 2 }, macFirst: true, duplicate: true },
  { term: 'photo sharing', count: 60, placed: { instagram: 3, tiktok: 7 } },
  { term: 'short videos', count: 50, placed: { tiktok: 1, instagram: 4 } },
  { term: 'podcasts', count: 200, placed: { spotify: 12 } },
  { term: 'to do list', count: 120, placed: { todo: 5 } },
  { term: 'journal', count: 80, placed: { calm: 3 } },
  { term: 'mood tracker', count: 25, placed: { calm: 9 } },
  { term: 'ev charging', count: 30, placed: {} },
  // Rank moves between two capture days (rank alerts): Spotify up 6 places, out of the top
  // 10 by 3, down 3 (no alert), and out of the 200.
  { term: 'music player', count: 60, placed: { spotify: 14 } },
  { term: 'music player', count: 60, placed: { spotify: 8 }, day: '2026-07-01' },
  { term: 'podcast app', count: 60, placed: { spotify: 9 } },
  { term: 'podcast app', count: 60, placed: { spotify: 12 }, day: '2026-07-01' },
  { term: 'playlist maker', count: 60, placed: { spotify: 30 } },
  { term: 'playlist maker', count: 60, placed: { spotify: 33 }, day: '2026-07-01' },
  { term: 'music streaming', count: 200, placed: { spotify: 150 } },
  { term: 'music streaming', count: 200, placed: {}, day: '2026-07-01' },
];

const DAY = '2026-06-01';

function record(id: string, name: string, dev: string, kind: string, i: number) {
  return {
    wrapperType: 'software',
    kind,
    trackId: Number(id),
    trackName: name,
    artistName: dev,
    artworkUrl100: `https://is1-ssl.mzstatic.com/image/thumb/constructed/${id}/100x100bb.jpg`,
    averageUserRating: 3.5 + ((i * 7) % 15) / 10,
    userRatingCount: Math.round(200_000 / (i + 1)) + ((i * 37) % 500),
    releaseDate: `20${String(12 + (i % 12)).padStart(2, '0')}-0${1 + (i % 9)}-15T07:00:00Z`,
    currentVersionReleaseDate: `2026-0${1 + (i % 5)}-1${i % 10}T07:00:00Z`,
    primaryGenreName: 'Utilities',
    country: 'USA',
  };
}

/** The answer of one constructed search, as Apple would send it (three blank lines first). */
export function constructedSearchAnswer(search: (typeof CONSTRUCTED_SEARCHES)[number]): string {
  const byRank = new Map<number, TAppKey>();
  for (const [key, rank] of Object.entries(search.placed)) byRank.set(rank, key as TAppKey);
  const results: ReturnType<typeof record>[] = [];
  if (search.macFirst) {
    results.push(record('6450109999', 'Constructed Mac App', 'Constructed Dev', 'mac-software', 0));
  }
  for (let rank = 1; rank <= search.count; rank += 1) {
    const key = byRank.get(rank);
    const app = key ? SEARCH_APPS[key] : null;
    const fillerId = String(6450100000 + rank);
    results.push(
      app
        ? record(app.id, app.name, app.dev, 'software', rank)
        : record(
            fillerId,
            `Constructed ${search.term} app ${rank}`,
            `Dev ${rank % 13}`,
            'software',
            rank,
          ),
    );
  }
  const first = Object.keys(search.placed)[0] as TAppKey | undefined;
  if (search.duplicate && first) {
    const app = SEARCH_APPS[first];
    results.push(record(app.id, app.name, app.dev, 'software', 1));
  }
  return `\n\n\n${JSON.stringify({ resultCount: results.length, results }, null, 1)}\n`;
}

/**
 * Constructed search hints answers (the store's XML property list of suggestions) for a few
 * terms: the hints endpoint answers nothing for most terms today, so these exist only to test
 * that hints, when they come, become suggestions. Terms without one answer no hints.
 */
export const CONSTRUCTED_HINTS: ReadonlyArray<{ term: string; hints: string[] }> = [
  { term: 'music', hints: ['music', 'music player', 'music streaming', 'music offline'] },
  { term: 'podcasts', hints: ['podcasts', 'podcast app', 'podcast player'] },
];

/** The hints answer of one constructed term, as the store's property list would carry it. */
export function constructedHintsAnswer(hints: readonly string[]): string {
  const dicts = hints
    .map(
      (h) =>
        `<dict><key>term</key><string>${h}</string><key>url</key><string>https://search.itunes.apple.com/WebObjects/MZSearch.woa/wa/search?clientApplication=Software&amp;term=${encodeURIComponent(h)}</string></dict>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict><key>title</key><string>Suggestions</string><key>hints</key><array>\n${dicts}\n</array></dict>\n</plist>\n`;
}

/** File name of a constructed search hints answer. */
export const constructedHintsFile = (term: string) =>
  `constructed-search-hints_us_term-${term.replace(/\s+/g, '-')}_${DAY}.xml`;

/** File name of a constructed search answer captured on `day`. */
export const constructedSearchFile = (term: string, day = DAY) =>
  `constructed-itunes-search_us_term-${term.replace(/\s+/g, '-')}_${day}.json`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  for (const search of CONSTRUCTED_SEARCHES) {
    writeFileSync(
      path.join(dir, constructedSearchFile(search.term, search.day)),
      constructedSearchAnswer(search),
    );
  }
  for (const { term, hints } of CONSTRUCTED_HINTS) {
    writeFileSync(path.join(dir, constructedHintsFile(term)), constructedHintsAnswer(hints));
  }
}
