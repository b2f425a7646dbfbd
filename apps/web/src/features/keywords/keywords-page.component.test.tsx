import type { TKeywordGap, TKeywordItem, TKeywordResearch } from '@aso/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { startApiStandIn, type TApiStandIn } from '@/test/api-stand-in';
import { isRefused } from '@/test/dom';
import KeywordsPage from './keywords-page';
import { RESEARCH_POLL_MS } from './keywords.api';

// Constructed answers of the keyword calls (shapes of @aso/contracts), for Instagram in the US.
const APP = '389801252';
const LIST = `/api/keywords?appId=${APP}&storefront=us`;
const GAP = `/api/keywords/gap?appId=${APP}&storefront=us`;

let n = 0;
function item(over: Partial<TKeywordItem> & { term: string }): TKeywordItem {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    appId: APP,
    storefront: 'us',
    rank: null,
    previousRank: null,
    bestRank: null,
    change7d: null,
    checkedAt: '2026-06-01T10:00:00.000Z',
    nextReadAt: '2026-06-02T10:00:00.000Z',
    resultCount: 60,
    source: 'itunes-search',
    lastError: null,
    throttledUntil: null,
    competitors: [{ appId: '835599320', appName: 'TikTok', rank: null }],
    popularity: null,
    difficulty: null,
    recent: [],
    createdAt: '2026-05-01T10:00:00.000Z',
    ...over,
  };
}

const GAP_ANSWER: TKeywordGap = {
  apps: [
    { appId: APP, appName: 'Instagram', mine: true },
    { appId: '835599320', appName: 'TikTok', mine: false },
  ],
  rows: [
    { term: 'photo sharing', tracked: true, ranks: [3, 7], gap: false },
    { term: 'music', tracked: true, ranks: [null, 2], gap: true },
    { term: 'short videos', tracked: true, ranks: [4, 1], gap: false },
    { term: 'live', tracked: false, ranks: [null, null], gap: false },
  ],
};

const estimate = (value: number) => ({
  value,
  label: 'estimate' as const,
  signals: [
    { name: 'resultCount', value: 30, weight: 0.25 },
    { name: 'leaderRatings', value: 83, weight: 0.35 },
  ],
});

const RESEARCH: TKeywordResearch = {
  term: 'journal',
  storefront: 'us',
  resultCount: 80,
  checkedAt: '2026-06-01T10:00:00.000Z',
  topApps: [
    {
      appId: '6450000001',
      appName: 'Calm Notes: Journal & Mood',
      developer: 'Calm Notes Studio',
      iconUrl: null,
      rating: 4.1,
      ratingCount: 50_100,
      releasedAt: null,
      updatedAt: null,
      titleMatch: 'exact',
    },
  ],
  popularity: estimate(79),
  difficulty: estimate(75),
  suggestions: [{ term: 'mood journal', source: 'competitor-title' }],
  hintsEmpty: true,
};

/** How long a screen may take to show what its calls answered (a loaded machine is slow). */
const LOADED = { timeout: 5_000 };

let api: TApiStandIn;
beforeAll(async () => {
  api = await startApiStandIn();
});
afterAll(() => api.close());
beforeEach(() => {
  api.received.length = 0;
  api.answerFor('GET', '/api/watchlist', 200, []);
  api.answerFor('GET', GAP, 200, GAP_ANSWER);
});

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[`/apps/${APP}/keywords?storefront=us`]}>
        <Routes>
          <Route path="/apps/:appId/keywords" element={<KeywordsPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const rowOf = (term: string) =>
  screen.getAllByTestId('keyword-row').find((r) => r.getAttribute('data-term') === term)!;

describe('Keywords page (docs/product.md#keywords)', () => {
  it('shows every state of a read in words, and which order the ranks are in', async () => {
    const at1405 = new Date();
    at1405.setHours(14, 5, 0, 0);
    api.answerFor('GET', LIST, 200, {
      items: [
        item({ term: 'photo sharing', rank: 3, bestRank: 2, change7d: 2 }),
        item({ term: 'music' }),
        item({ term: 'journal', checkedAt: null }),
        item({ term: 'podcasts', rank: 12, throttledUntil: at1405.toISOString() }),
        item({
          term: 'short videos',
          rank: 4,
          lastError: 'Request to https://x/search?term=short timed out after 15000 ms',
          competitors: [{ appId: '835599320', appName: 'TikTok', rank: 1 }],
        }),
      ],
    });
    renderPage();
    await screen.findAllByTestId('keyword-row', undefined, LOADED);
    expect(screen.getByTestId('keywords-source').textContent).toContain(
      "iTunes Search API order; the device's order can differ.",
    );
    expect(within(rowOf('photo sharing')).getByTestId('rank').textContent).toBe('#3');
    expect(within(rowOf('photo sharing')).getByTestId('change-7d').textContent).toBe('up 2');
    expect(within(rowOf('photo sharing')).getByTestId('best-rank').textContent).toBe('#2');
    expect(within(rowOf('music')).getByTestId('rank').textContent).toBe('not in top 200');
    expect(within(rowOf('journal')).getByTestId('rank').textContent?.trim()).toBe(
      'first read queued',
    );
    expect(within(rowOf('podcasts')).getByTestId('rank').textContent?.trim()).toBe(
      'rate-limitednext read at 14:05 · last #12',
    );
    expect(within(rowOf('short videos')).getByTestId('top-competitor').textContent).toBe(
      'TikTok #1',
    );
    expect(screen.getByTestId('keyword-error').textContent).toBe(
      'The last read failed: The App Store did not answer in time; the term is read again at its next round.',
    );
  });

  it('says so when no term is tracked, and refuses to refresh nothing', async () => {
    api.answerFor('GET', LIST, 200, { items: [] });
    renderPage();
    expect(
      await screen.findByText(
        /No term tracked for this app in the United States/,
        undefined,
        LOADED,
      ),
    ).toBeTruthy();
    expect(isRefused(screen.getByTestId('keywords-refresh'))).toBe(true);
  });

  it("names each pasted term that cannot be tracked, then the server's refusals", async () => {
    const user = userEvent.setup();
    api.answerFor('GET', LIST, 200, { items: [item({ term: 'music', rank: 5 })] });
    renderPage();
    await screen.findAllByTestId('keyword-row', undefined, LOADED);
    const box = screen.getByLabelText('Terms to track');
    // Pasted, as a list usually comes.
    await user.click(box);
    await user.paste(`Photo  Sharing, music, ${'y'.repeat(101)}`);
    expect(screen.getByTestId('add-terms-problems').textContent).toBe(
      `“${'y'.repeat(40)}…” is longer than 100 characters`,
    );
    expect(screen.getByTestId('add-terms-tracked').textContent).toBe('Already tracked: music');
    expect(isRefused(screen.getByTestId('add-terms-submit'))).toBe(true);

    await user.clear(box);
    await user.paste('Photo  Sharing\nshort videos');
    expect(screen.getByTestId('add-terms-submit').textContent).toBe('track 2 terms');
    api.answerFor('POST', '/api/keywords', 400, {
      message: 'terms: "short videos" holds a control character',
      code: 'BAD_REQUEST',
    });
    await user.click(screen.getByTestId('add-terms-submit'));
    expect((await screen.findByTestId('add-terms-error', undefined, LOADED)).textContent).toBe(
      '“short videos” holds a control character',
    );
    const sent = api.received.filter((r) => r.method === 'POST').at(-1)!;
    expect(JSON.parse(sent.body)).toEqual({
      appStoreUrl: `https://apps.apple.com/us/app/id${APP}`,
      terms: ['photo sharing', 'short videos'],
    });

    const limit =
      'You can track at most 100 terms for an app in a storefront (100 tracked); remove some to add others';
    api.answerFor('POST', '/api/keywords', 409, { message: limit, code: 'CONFLICT' });
    await user.type(box, ' ');
    await user.click(screen.getByTestId('add-terms-submit'));
    await vi.waitUntil(() => screen.queryByTestId('add-terms-error')?.textContent === limit, {
      timeout: 5_000,
    });
  }, 15_000);

  it('asks again for a term whose first read is queued until its research is in', async () => {
    const user = userEvent.setup();
    api.answerFor('GET', LIST, 200, { items: [item({ term: 'music', rank: 5 })] });
    api.answerFor('GET', '/api/keywords/research', 202, {
      queued: true,
      expectedBy: new Date(Date.now() + 3_000).toISOString(),
    });
    renderPage();
    await user.type(screen.getByLabelText('Term to research'), 'journal');
    await user.click(screen.getByTestId('research-submit'));
    expect((await screen.findByTestId('research-queued', undefined, LOADED)).textContent).toMatch(
      /^First read queued: the store's results for “journal” are read at \d\d:\d\d at the earliest/,
    );
    api.answerFor('GET', '/api/keywords/research', 200, RESEARCH);
    const result = await screen.findByTestId('research-result', undefined, {
      timeout: RESEARCH_POLL_MS * 3,
    });
    const asked = api.received.filter((r) => r.url.startsWith('/api/keywords/research'));
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked[0]!.url).toBe(`/api/keywords/research?term=journal&storefront=us&appId=${APP}`);
    // Both estimates are labelled so, with their signals (name, value, weight).
    for (const id of ['research-popularity', 'research-difficulty']) {
      const box = within(result).getByTestId(id);
      expect(within(box).getByText('estimate')).toBeTruthy();
      expect(
        within(box)
          .getAllByTestId('estimate-signal')
          .map((s) => s.textContent),
      ).toEqual(['results in the store3025%', "leaders' ratings volume8335%"]);
    }
    expect(
      within(result).getByRole('img', { name: 'Calm Notes: Journal & Mood icon' }),
    ).toBeTruthy();
    expect(within(result).getByTestId('hints-empty')).toBeTruthy();
    expect(within(result).getByTestId('research-suggestion').textContent).toBe(
      "research mood journalfrom a competitor's title or subtitle",
    );
  }, 20_000);

  it('sorts the gap matrix from its header buttons, flagged terms first at the start', async () => {
    const user = userEvent.setup();
    api.answerFor('GET', LIST, 200, {
      items: ['photo sharing', 'music', 'short videos'].map((term) => item({ term, rank: 3 })),
    });
    renderPage();
    const table = await screen.findByTestId('gap-table', undefined, LOADED);
    const terms = () =>
      within(table)
        .getAllByTestId('gap-row')
        .map((r) => r.getAttribute('data-term'));
    expect(terms()).toEqual(['music', 'photo sharing', 'short videos']);
    expect(within(table).getByTestId('gap-flag').textContent?.trim()).toBe('gap: TikTok is #2');
    await user.click(within(table).getByRole('button', { name: /TikTok/ }));
    expect(terms()).toEqual(['short videos', 'music', 'photo sharing']);
    expect(
      within(table)
        .getByRole('button', { name: /TikTok/ })
        .closest('th')!
        .getAttribute('aria-sort'),
    ).toBe('ascending');
    await user.click(within(table).getByRole('button', { name: /TikTok/ }));
    expect(terms()).toEqual(['photo sharing', 'music', 'short videos']);
    // The competitors' title terms not tracked, each with "track".
    const untracked = screen.getByTestId('gap-untracked-term');
    expect(untracked.getAttribute('data-term')).toBe('live');
    expect(within(untracked).getByRole('button', { name: 'Track “live”' })).toBeTruthy();
  });
});
