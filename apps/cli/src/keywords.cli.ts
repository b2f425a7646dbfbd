import { parseAppStoreUrl } from '@aso/appstore';
import type { ApiClient } from '@aso/api-client';
import {
  KEYWORD_RANK_DEPTH,
  normalizeTerm,
  rankLabel,
  type TKeywordItem,
  type TRankSource,
} from '@aso/contracts';

/** How often the command asks whether the reads are done (ms). */
const POLL_MS = 2_000;

/** Where the ranks come from, in words (docs/keywords.md#which-order-the-ranks-are). */
const SOURCE_WORDS: Record<TRankSource, string> = {
  'itunes-search': 'the iTunes Search API order (not always the order the App Store app shows)',
};

/** What `pnpm aso keywords` prints with `--json`. */
export interface TKeywordsReport {
  appId: string;
  storefront: string;
  /** Deepest position read: a null rank is "not in the top 200". */
  depth: number;
  items: TKeywordItem[];
  /** Requested terms whose first read was not done when the command stopped waiting. */
  unread: string[];
}

/** A term is settled once it was read, or its read failed after its retries. */
const settled = (i: TKeywordItem) => i.checkedAt !== null || i.lastError !== null;

const signed = (n: number | null) => (n === null ? '-' : n > 0 ? `+${n}` : String(n));

/** Time of day as `14:05` (UTC), for "next read at". */
const clock = (iso: string) => iso.slice(11, 16);

/** A term's rank as the table prints it. */
function rankCell(i: TKeywordItem): string {
  if (i.checkedAt === null) {
    if (i.throttledUntil) return `rate-limited, next read at ${clock(i.throttledUntil)} UTC`;
    if (i.lastError) return 'error';
    return 'not read yet';
  }
  return i.rank === null ? `not in top ${KEYWORD_RANK_DEPTH}` : `#${i.rank}`;
}

/**
 * The readable report of `pnpm aso keywords`: one line naming the app, storefront and where the
 * order comes from, then per term its rank (`#8`, `not in top 200`, `not read yet`,
 * `rate-limited, next read at 14:05 UTC`), change over 7 days, best rank, the popularity and
 * difficulty estimates (labelled "est."), the best-ranked watched competitor and when it was
 * read; an error of the last read under its term.
 */
export function formatKeywords(report: TKeywordsReport): string {
  const source = report.items.find((i) => i.source !== null)?.source ?? 'itunes-search';
  const lines = [
    `App ${report.appId} in ${report.storefront.toUpperCase()}: ranks in ${SOURCE_WORDS[source]}, top ${report.depth}.`,
    '',
  ];
  const header = [
    'term',
    'rank',
    '7d',
    'best',
    'popularity est.',
    'difficulty est.',
    'top competitor',
  ];
  const rows = report.items.map((i) => {
    const top = i.competitors.filter((c) => c.rank !== null).sort((a, b) => a.rank! - b.rank!)[0];
    return [
      i.term,
      rankCell(i),
      signed(i.change7d),
      i.bestRank === null ? '-' : `#${i.bestRank}`,
      i.popularity ? String(i.popularity.value) : '-',
      i.difficulty ? String(i.difficulty.value) : '-',
      top ? `${top.appName ?? `App ${top.appId}`} ${rankLabel(top.rank)}` : '-',
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  lines.push(line(header));
  report.items.forEach((item, n) => {
    lines.push(line(rows[n]!));
    if (item.lastError) lines.push(`  ${item.lastError}`);
  });
  const read = report.items.map((i) => i.checkedAt).filter((t): t is string => t !== null);
  if (read.length > 0)
    lines.push('', `Read ${read.sort().at(-1)!.replace('T', ' ').slice(0, 16)} UTC.`);
  lines.push(
    'Popularity (1-100) and difficulty (0-100) are estimates from the top results (docs/keywords.md).',
  );
  if (report.unread.length > 0) {
    lines.push(
      `${report.unread.length} of ${report.items.length} terms not read yet (reads wait for the search rate limit): run again later.`,
    );
  }
  return lines.join('\n');
}

/**
 * `pnpm aso keywords <url> --term <t>...`: tracks the terms for the app of `url` (its
 * storefront; `POST /api/keywords`), then waits up to `waitMs` for each term's first read
 * (reads run under the search rate limit), asking every 2 s, and answers the report of the
 * requested terms (the rank, estimates and competitors of each). Throws the API's errors.
 */
export async function trackAndReport(
  client: ApiClient,
  token: string,
  url: string,
  terms: readonly string[],
  waitMs: number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<TKeywordsReport> {
  const parsed = parseAppStoreUrl(url);
  const tracked = await client.trackKeywords(token, { appStoreUrl: url, terms: [...terms] });
  const first = tracked.items[0];
  const appId = first?.appId ?? parsed.appId ?? '';
  const storefront = first?.storefront ?? parsed.storefront;
  const wanted = new Set(terms.map((t) => normalizeTerm(t, storefront)));
  const pick = (items: TKeywordItem[]) => items.filter((i) => wanted.has(i.term));
  let items = pick(tracked.items);
  const deadline = Date.now() + waitMs;
  while (!items.every(settled) && Date.now() < deadline) {
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    items = pick((await client.keywords(token, appId, storefront)).items);
  }
  return {
    appId,
    storefront,
    depth: KEYWORD_RANK_DEPTH,
    items,
    unread: items.filter((i) => !settled(i)).map((i) => i.term),
  };
}
