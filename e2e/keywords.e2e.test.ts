/**
 * Browser tests of the Keywords screens (docs/product.md#keywords), against the replay
 * server's search answers (the project's CONSTRUCTED recordings place Instagram, TikTok and
 * Spotify at known positions, `CONSTRUCTED_SEARCHES`): Instagram watched as the user's app,
 * TikTok and Spotify as competitors; terms pasted on the Keywords page (opened from the
 * sidebar's Keywords screen) are read at once and show their ranks, the competitors' ranks from
 * the same read, and the order they come in; a term is removed and the rest refreshed; a term
 * never read is researched (queued, then its top 10, estimates and signals); the gap matrix is
 * sorted by keyboard and its competitor terms tracked; at 1440x900 and 390x844, where nothing
 * overflows the page and the wide tables scroll inside their cards. Screenshots go to
 * `artifacts/e2e/`.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { ZKeywordList, ZWatchItem, type TKeywordItem } from '@aso/contracts';
import { CONSTRUCTED_SEARCHES, SEARCH_APPS } from '@aso/appstore/recordings';
import { axeViolations, VIEWPORTS } from './support/axe';
import { launchBrowser, newAppPage, saveScreenshot, screenshotOnFailure } from './support/browser';
import { focusIsVisible, tabTo } from './support/keyboard';
import { generateAccessCode, signUpThroughUi } from './support/session';
import { INSTAGRAM_URL, SPOTIFY_URL } from './support/samples';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');

const TIKTOK_URL = 'https://apps.apple.com/us/app/tiktok/id835599320';
const MINE = SEARCH_APPS.instagram;

/** Where a constructed answer places an app for a term (null: not in it). */
function placed(term: string, app: keyof typeof SEARCH_APPS): number | null {
  const search = CONSTRUCTED_SEARCHES.find((s) => s.term === term);
  if (!search) throw new Error(`no constructed search answer for "${term}"`);
  return search.placed[app] ?? null;
}

/** Calls the api as the page's signed-in user. */
async function api(page: Page, path: string, init: RequestInit = {}): Promise<Response> {
  const token = await page.evaluate(() => localStorage.getItem('sessionToken'));
  return fetch(`${baseUrl}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    signal: AbortSignal.timeout(10_000),
  });
}

async function tracked(page: Page): Promise<TKeywordItem[]> {
  const res = await api(page, `/api/keywords?appId=${MINE.id}&storefront=us`);
  return ZKeywordList.parse(await res.json()).items;
}

/** The page's width beyond the viewport (0 when nothing overflows sideways). */
const overflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

describe('keywords: ranks, research and the gap matrix', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newAppPage(browser, baseUrl, VIEWPORTS.desktop));
    const code = await generateAccessCode(baseUrl, adminCode);
    await signUpThroughUi(page, code, 'keywords');
    for (const [appStoreUrl, role] of [
      [INSTAGRAM_URL, 'mine'],
      [TIKTOK_URL, 'competitor'],
      [SPOTIFY_URL, 'competitor'],
    ] as const) {
      const res = await api(page, '/api/watchlist', {
        method: 'POST',
        body: JSON.stringify({ appStoreUrl, role }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    // Their first reads give the competitors' names, titles and subtitles.
    await vi.waitUntil(
      async () => {
        const res = await api(page, '/api/watchlist');
        return ZWatchItem.array()
          .parse(await res.json())
          .every((i) => i.lastCheckedAt !== null);
      },
      { timeout: 90_000, interval: 500 },
    );
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  screenshotOnFailure(afterEach, () => page);

  it('tracks pasted terms and shows their ranks, the competitors and the order', async () => {
    await page.getByTestId('nav-keywords').click();
    await page.getByRole('heading', { name: 'Keywords', level: 1 }).waitFor();
    await page.getByRole('link', { name: `Keywords of Instagram (United States)` }).click();
    await page.getByTestId('keywords-page').waitFor();
    expect(await page.getByTestId('keywords-app-name').textContent()).toBe('Instagram');
    await page.getByText(/^No term tracked for this app in the United States/).waitFor();
    expect(await page.getByTestId('keywords-source').textContent()).toContain(
      "iTunes Search API order; the device's order can differ.",
    );

    // A list pasted with commas and new lines, in any case; a term over 100 characters is
    // named and holds the list back until it is removed.
    const box = page.getByLabel('Terms to track');
    await box.fill(`Photo  Sharing, short videos\nmusic\n${'z'.repeat(101)}`);
    await page
      .getByTestId('add-terms-problems')
      .getByText(/is longer than 100 characters/)
      .waitFor();
    expect(await page.getByTestId('add-terms-submit').getAttribute('aria-disabled')).toBe('true');
    await box.fill('Photo  Sharing, short videos\nmusic, ev charging');
    await page.getByRole('button', { name: 'track 4 terms' }).click();
    await page.getByText('Tracking', { exact: true }).first().waitFor();
    const terms = ['photo sharing', 'short videos', 'music', 'ev charging'];
    const row = (term: string) => page.locator(`[data-testid="keyword-row"][data-term="${term}"]`);
    for (const term of terms) await row(term).waitFor();

    // Read at once (the first read is queued on tracking): each rank is the app's position in
    // the store's answer, "not in top 200" where it is absent; the table fills in by itself.
    for (const term of terms) {
      const rank = placed(term, 'instagram');
      await row(term)
        .locator(`[data-testid="rank"][data-state="${rank === null ? 'unranked' : 'ranked'}"]`)
        .waitFor({ timeout: 30_000 });
      expect(await row(term).getByTestId('rank').textContent()).toBe(
        rank === null ? 'not in top 200' : `#${rank}`,
      );
    }
    // The best-ranked watched competitor, from the same read.
    expect(await row('short videos').getByTestId('top-competitor').textContent()).toBe(
      `${SEARCH_APPS.tiktok.name} #${placed('short videos', 'tiktok')}`,
    );
    expect(await row('music').getByTestId('top-competitor').textContent()).toBe(
      `${SEARCH_APPS.spotify.name} #${placed('music', 'spotify')}`,
    );
    expect(await row('ev charging').getByTestId('top-competitor').textContent()).toBe(
      'none in top 200',
    );
    // What the table shows is what the api answers.
    const items = await tracked(page);
    expect(items.map((i) => [i.term, i.rank]).sort()).toEqual(
      terms.map((t) => [t, placed(t, 'instagram')]).sort(),
    );
    expect(
      await row('photo sharing').getByTestId('rank-sparkline').getAttribute('data-points'),
    ).toBe(String(items.find((i) => i.term === 'photo sharing')!.recent.length));
    await saveScreenshot(page, 'keywords-1440');

    // Removed behind its confirmation; the others refreshed now.
    await row('ev charging').getByTestId('keyword-remove').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await row('ev charging').waitFor({ state: 'detached' });
    expect((await tracked(page)).map((i) => i.term).sort()).toEqual([
      'music',
      'photo sharing',
      'short videos',
    ]);
    await page.getByTestId('keywords-refresh').click();
    await page.getByText('Refresh queued', { exact: true }).waitFor();
    await page
      .getByText(/^3 terms are read from the App Store search, done by \d\d:\d\d/)
      .waitFor();
  });

  it('researches a term never read: queued, then its top 10, estimates and signals', async () => {
    const panel = page.getByTestId('research-panel');
    await panel.getByLabel('Term to research').fill('journal');
    await panel.getByTestId('research-submit').click();
    // Nobody tracks "journal": its first read is queued, and the panel asks again by itself.
    // A read taken at once can answer before the queued state is ever seen: either will do,
    // but a queued state says so.
    const queued = panel.getByTestId('research-queued');
    const result = panel.getByTestId('research-result');
    await queued.or(result).first().waitFor({ timeout: 30_000 });
    for (const text of await queued.allTextContents()) expect(text).toMatch(/^First read queued/);
    await result.waitFor({ timeout: 30_000 });
    const journal = CONSTRUCTED_SEARCHES.find((s) => s.term === 'journal')!;
    expect(await result.getByTestId('research-count').textContent()).toBe(String(journal.count));
    const top = result.getByTestId('research-app');
    expect(await top.count()).toBe(10);
    expect(await top.nth(placed('journal', 'calm')! - 1).getAttribute('data-app-id')).toBe(
      SEARCH_APPS.calm.id,
    );
    // An icon (or its placeholder) per result, named by the app.
    expect(await result.getByRole('img', { name: `${SEARCH_APPS.calm.name} icon` }).count()).toBe(
      1,
    );
    for (const id of ['research-popularity', 'research-difficulty']) {
      const box = result.getByTestId(id);
      expect(await box.getByText('estimate', { exact: true }).count()).toBe(1);
      expect(await box.getByTestId('estimate-signal').count()).toBeGreaterThan(2);
    }
    await result.getByTestId('hints-empty').waitFor();
    // Suggestions carry their source.
    const suggestions = result.getByTestId('research-suggestion');
    for (const source of await suggestions.evaluateAll(
      (els: { getAttribute(name: string): string | null }[]) =>
        els.map((e) => e.getAttribute('data-source')),
    ))
      expect(['search-hints', 'competitor-title', 'keyword-field']).toContain(source);
    await saveScreenshot(page, 'keywords-research-1440');
    expect(await axeViolations(page), 'keywords page with research at desktop').toEqual([]);
  });

  it('shows the gap matrix at both sizes, sorted by keyboard, with terms to track', async () => {
    const gap = page.getByTestId('gap-matrix');
    const table = gap.getByTestId('gap-table');
    await table.waitFor();
    const shown = async () =>
      gap
        .getByTestId('gap-row')
        .evaluateAll((els: { getAttribute(name: string): string | null }[]) =>
          els.map((e) => [e.getAttribute('data-term'), e.getAttribute('data-gap')]),
        );
    // "music": Spotify in the top 10, the app absent: flagged, and first.
    expect((await shown())[0]).toEqual(['music', 'true']);
    expect((await shown()).filter(([, g]) => g === 'true')).toEqual([['music', 'true']]);

    // Headers are buttons: sorting by the app's own column from the keyboard, focus visible.
    const mineHeader = table.getByRole('button', { name: /\(you\)/ });
    await table.getByRole('button', { name: /^Gap/ }).focus();
    await tabTo(page, mineHeader, { max: 1 });
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await table.locator('th[aria-sort="ascending"]').textContent()).toMatch(/\(you\)/);
    const ranked = ['photo sharing', 'short videos'].sort(
      (a, b) => (placed(a, 'instagram') ?? 201) - (placed(b, 'instagram') ?? 201),
    );
    expect((await shown()).map(([t]) => t)).toEqual([...ranked, 'music']);

    // At 390 px: nothing overflows the page; the matrix scrolls inside its card.
    await page.setViewportSize(VIEWPORTS.phone);
    await expect.poll(() => overflow(page)).toBe(0);
    const scroller = table.locator('xpath=..');
    const { scrollWidth, clientWidth } = await scroller.evaluate(
      (el: { scrollWidth: number; clientWidth: number }) => ({
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
      }),
    );
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    const card = await page.getByTestId('keywords-gap').boundingBox();
    expect(card!.x + card!.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await saveScreenshot(page, 'keywords-390');
    expect(await axeViolations(page), 'keywords page at phone size').toEqual([]);
    await page.setViewportSize(VIEWPORTS.desktop);

    // A competitor's title term not tracked yet: "track" adds it to the table and the matrix.
    const offer = gap.getByTestId('gap-untracked-term').first();
    const term = (await offer.getAttribute('data-term'))!;
    await offer.getByRole('button', { name: `Track “${term}”` }).click();
    await page.locator(`[data-testid="keyword-row"][data-term="${term}"]`).waitFor();
    await gap.locator(`[data-testid="gap-row"][data-term="${term}"]`).waitFor();
    expect((await tracked(page)).map((i) => i.term)).toContain(term);
  });
});
