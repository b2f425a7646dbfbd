/**
 * The main path of a new user (docs/product.md#audit-tab): audit Spotify with two recorded
 * competitors (Instagram 389801252, TikTok 835599320), watch the steps advance to the results,
 * check every section against the recordings and the audit the api returns, save the audit, reload,
 * open `/results/:id`, delete it through the confirmation; an unknown id shows 'AUDIT NOT FOUND'.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ZAudit,
  ZSavedAudit,
  STEP_IDS,
  type TAudit,
  type TSavedAudit,
  type TSectionKey,
} from '@aso/contracts';
import { launchBrowser, newAppPage, saveScreenshot, screenshotOnFailure } from './support/browser';
import { recordedLookup, recordedPage } from './support/recorded';
import { generateAccessCode, signUpThroughUi } from './support/session';
import { INSTAGRAM_URL, SPOTIFY_URL } from './support/samples';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');

const TIKTOK_URL = 'https://apps.apple.com/us/app/tiktok-videos-shop-live/id835599320';

const spotifyLookup = recordedLookup('itunes-lookup_us_spotify_id324684580_2026-06.json');
const spotifyPage = recordedPage('media-api_us_spotify_id324684580_2025-07.json');
const instagramPage = recordedPage('media-api_us_instagram_id389801252_2025-07.json');
const tiktokLookup = recordedLookup('itunes-lookup_us_tiktok_id835599320_2026-06.json');

/**
 * Section titles as the results show them (docs/product.md#audit-tab), for every section but the
 * category.
 */
const SECTIONS: Record<Exclude<TSectionKey, 'category'>, string> = {
  title: 'Title',
  subtitle: 'Subtitle',
  keywords: 'Keyword Field',
  icon: 'Icon',
  video: 'Video',
  screenshots: 'Screenshots',
  rating: 'Rating',
  inAppEvents: 'IAE',
  description: 'Description',
  updates: 'Updates',
  localization: 'Localization',
  reviews: 'Reviews',
  appSize: 'App Size',
  compatibility: 'Compatibility',
};

/**
 * Same rule as the client (docs/product.md#limits-and-constants), written out independently for the
 * check.
 */
function expectedAbbreviation(count: number): string {
  if (count >= 1_000_000) return `${Number((count / 1_000_000).toFixed(1))}M`;
  if (count >= 1_000) return `${Number((count / 1_000).toFixed(1))}K`;
  return String(count);
}

async function api<T>(page: Page, path: string, parse: (v: unknown) => T): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('sessionToken'));
  const res = await fetch(`${baseUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return parse(await res.json());
}

/**
 * Installed in the page before an audit starts: records the steps' statuses (in page order)
 * each time one changes, into `window.__stepSnapshots`. A string, so it runs in the page as is.
 */
const STEP_RECORDER = `(() => {
  const snapshots = (window.__stepSnapshots = []);
  let last = '';
  new MutationObserver(() => {
    const view = document.querySelector('[data-testid="progress-view"]');
    if (!view) return;
    const statuses = [...view.querySelectorAll('[data-testid^="step-"]')].map((el) => el.getAttribute('data-status'));
    const key = statuses.join();
    if (key !== last) { last = key; snapshots.push(statuses); }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
})()`;

describe('audit run', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let audit: TAudit;
  let saved: TSavedAudit;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newAppPage(browser, baseUrl));
    await signUpThroughUi(page, await generateAccessCode(baseUrl, adminCode), 'run');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  screenshotOnFailure(afterEach, () => page);

  it('runs an audit of Spotify with two competitors and shows the steps advancing', async () => {
    await page.locator('#app-url').fill(SPOTIFY_URL);
    await page.locator('#keywords').fill('music,podcast,playlist,audiobooks,radio');
    await page.locator('#competitor-url-1').fill(INSTAGRAM_URL);
    await page.locator('#competitor-url-2').fill(TIKTOK_URL);
    // The replayed store answers fast: record every change of the steps in the page itself
    // rather than polling from here and missing states.
    await page.evaluate(STEP_RECORDER);
    await page.getByRole('button', { name: 'start ASO analysis' }).click();

    await page.getByRole('heading', { name: 'ANALYZING YOUR APP' }).waitFor();
    // Three valid links: 3 min (docs/product.md#limits-and-constants).
    expect(await page.getByTestId('estimated-time').textContent()).toBe('3 min');
    expect(await page.getByTestId('elapsed-timer').textContent()).toMatch(/^(\d+ min )?\d+ s$/);
    await saveScreenshot(page, 'run-progress', { fullPage: false });

    await page.getByTestId('audit-result').waitFor({ timeout: 110_000 });
    expect(await page.getByTestId('elapsed-timer').count()).toBe(0);
    const snapshots = await page.evaluate<string[][]>('window.__stepSnapshots');

    // Advancing: several states seen, in order, none with an error; done counts never go
    // down; the last state before the result had every step up to 'finalize' done.
    expect(snapshots.length).toBeGreaterThan(2);
    expect(snapshots[0]!.every((v) => v === 'pending' || v === 'in_progress')).toBe(true);
    for (const snapshot of snapshots) {
      expect(snapshot).toHaveLength(STEP_IDS.length);
      expect(snapshot).not.toContain('error');
    }
    const doneCounts = snapshots.map((s) => s.filter((v) => v === 'done').length);
    expect(doneCounts).toEqual([...doneCounts].sort((a, b) => a - b));
    const last = snapshots.at(-1)!;
    expect(last.slice(0, STEP_IDS.indexOf('finalize') + 1).every((v) => v === 'done')).toBe(true);
  });

  it('shows every section with the recorded values', async () => {
    await page.getByTestId('app-header').waitFor();
    const name = await page.getByTestId('app-name').textContent();
    expect(name).toBe(spotifyLookup.trackName);
    expect(await page.getByTestId('app-subtitle').textContent()).toBe(spotifyPage.subtitle);
    expect([spotifyLookup.artistName, spotifyLookup.sellerName]).toContain(
      await page.getByTestId('app-developer').textContent(),
    );
    expect(await page.getByTestId('app-category').textContent()).toBe(
      spotifyLookup.primaryGenreName,
    );
    expect(await page.getByTestId('app-header').getByTestId('rating-value').textContent()).toBe(
      (Math.round(spotifyLookup.averageUserRating * 10) / 10).toFixed(1),
    );
    const reviewText = await page
      .getByTestId('app-header')
      .getByTestId('review-count')
      .textContent();
    expect(
      [spotifyLookup.userRatingCount, spotifyPage.ratingCount].map(
        (n) => `(${expectedAbbreviation(n)} ratings)`,
      ),
    ).toContain(reviewText);

    // The store data line: the Ember page (the replay server's shell is en-US), lookup, feed.
    expect(await page.getByTestId('store-data-sources').textContent()).toBe(
      'Ember page layout (en-US) · lookup · reviews feed',
    );

    // Visual assets: screenshots strip and the long description with Read more / Read less.
    expect(await page.getByTestId('app-screenshots').getByRole('img').count()).toBeGreaterThan(0);
    const description = page.getByTestId('app-description');
    expect((await description.textContent())!.length).toBeLessThanOrEqual(301);
    await page.getByRole('button', { name: 'Read more' }).click();
    expect((await description.textContent())!.length).toBe(spotifyLookup.description.length);
    await page.getByRole('button', { name: 'Read less' }).click();

    // ASO Analysis sections, each with analysis text and a score.
    for (const [key, label] of Object.entries(SECTIONS)) {
      const card = page.getByTestId(`section-${key}`);
      await card.getByText(label, { exact: true }).first().waitFor();
      expect((await card.getByTestId('section-analysis').textContent())!.length).toBeGreaterThan(
        10,
      );
      // Every section of the recorded Spotify listing could be read, so each is judged, but
      // the icon: it is shown, and its design is not measured.
      expect(await card.getByTestId('section-score').textContent()).toMatch(
        key === 'icon' ? /^not judged$/ : /^\d{1,3}\/100$/,
      );
    }

    // "How this is scored": the rules of the section, with their verdicts and sources.
    const title = page.getByTestId('section-title');
    await title.getByText('How this is scored').click();
    const titleRules = title.getByTestId('scoring-rule');
    expect(await titleRules.count()).toBe(4);
    expect(await titleRules.first().textContent()).toContain('The app has a name.');
    expect(await titleRules.first().getAttribute('data-status')).toBe('passed');
    const limit = titleRules.nth(1);
    expect(await limit.textContent()).toContain('title.length-limit v1');
    expect(await limit.getByRole('link').getAttribute('href')).toBe(
      'https://developer.apple.com/help/app-store-connect/reference/app-information',
    );
    const size = page.getByTestId('section-appSize');
    await size.getByText('How this is scored').click();
    expect(await size.getByTestId('scoring-rule').textContent()).toMatch(
      /200 MB cellular download limit/,
    );
    expect(
      await page.getByTestId('section-description').getByTestId('section-analysis').textContent(),
    ).toContain('Apple does not index the iOS description for search');
    // Screenshot sets are named as Apple names display sizes, never by their keys.
    expect(
      await page.getByTestId('section-screenshots').getByTestId('section-analysis').textContent(),
    ).toMatch(/inch iPhone display/);
    expect(await page.getByTestId('aso-analysis').textContent()).not.toMatch(
      /iphone_d74|iphone_6_5/,
    );
    // The heuristic provider writes every text: no "rules only" label.
    expect(await page.getByTestId('rules-only').count()).toBe(0);
    await saveScreenshot(page, 'run-scoring-disclosure');
    expect(await page.getByTestId('section-title').getByTestId('section-usage').textContent()).toBe(
      `${Array.from(spotifyLookup.trackName).length}/30 characters`,
    );
    expect(await page.getByTestId('overall-score').textContent()).toMatch(/^\d{1,3}$/);
    expect(await page.getByTestId('overall-score-composition').textContent()).toMatch(
      /^\d{1,3}\/100 from 14 of 15 sectionsNot judged: Icon$/,
    );

    // Competitor Analysis: the app and the two competitors.
    const rows = page.getByTestId('competitor-analysis').getByTestId('competitor-row');
    expect(await rows.count()).toBe(3);
    const table = (await page.getByTestId('competitor-analysis').textContent()) ?? '';
    expect(table).toContain(instagramPage.name);
    expect(table).toContain(tiktokLookup.trackName);
    await page.getByTestId('feedback-box').waitFor();
    await saveScreenshot(page, 'run-results');
  });

  it('submits feedback and refuses an empty one', async () => {
    const box = page.getByTestId('feedback-box');
    await box.getByRole('button', { name: 'submit feedback' }).click();
    await page
      .getByText('Please enter your feedback before submitting.', { exact: true })
      .waitFor();
    await box.getByLabel('Your feedback').fill('Clear and useful, thanks.');
    await box.getByRole('button', { name: 'submit feedback' }).click();
    await page
      .getByText('Your feedback has been submitted successfully.', { exact: true })
      .waitFor();
    await page.getByText('Thank you!', { exact: true }).waitFor();
  });

  it('saves the audit, lists it after a reload and opens /results/:id', async () => {
    await page.getByRole('button', { name: 'save audit' }).click();
    await page.getByText('Audit Saved', { exact: true }).waitFor();
    const list = await api(page, '/api/saved-audits', (v) => ZSavedAudit.array().parse(v));
    expect(list).toHaveLength(1);
    saved = list[0]!;
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${String(d.getDate()).padStart(2, '0')}-${String(d.getMonth() + 1).padStart(2, '0')}-${d.getFullYear()}`;
    });
    expect(saved.name).toBe(`${spotifyLookup.trackName} US ${today}`);
    audit = await api(page, `/api/audit/${saved.auditId}`, (v) => ZAudit.parse(v));
    expect(audit.competitorData.map((c) => c.appId).sort()).toEqual(['389801252', '835599320']);

    await page.reload();
    const entry = page
      .getByTestId('saved-audits')
      .getByRole('button', { name: saved.name, exact: true });
    await entry.waitFor();
    await entry.click();
    await page.getByTestId('app-name').filter({ hasText: spotifyLookup.trackName }).waitFor();

    await page.goto(`/results/${saved.auditId}`);
    await page.getByTestId('back-home').waitFor();
    await page.getByTestId('app-name').filter({ hasText: spotifyLookup.trackName }).waitFor();
    const sets = page.getByTestId('competitor-screenshot-set');
    expect(await sets.count()).toBe(2);
    const analyses = await page.getByTestId('competitor-screenshot-analysis').allTextContents();
    expect(analyses.length).toBeGreaterThan(0);
    for (const text of analyses) {
      expect(text).not.toMatch(/to improve|a\/b testing/i);
      expect(text).not.toMatch(/^\s*\d+[.)]/m);
    }
    await page.getByTestId('promo-block').waitFor();
    await page.getByTestId('feedback-box').waitFor();
    await saveScreenshot(page, 'run-standalone-result');
  });

  it('deletes the saved audit through the confirmation dialog', async () => {
    const item = page
      .getByTestId('saved-audits')
      .getByRole('listitem')
      .filter({ hasText: saved.name });
    await item.hover();
    await item.getByRole('button', { name: `Delete ${saved.name}` }).click();
    await page.getByRole('alertdialog').getByText('Are you sure?').waitFor();
    await saveScreenshot(page, 'run-delete-confirmation', { fullPage: false });
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('saved-audits').getByText('No saved audits yet').waitFor();
    expect(await api(page, '/api/saved-audits', (v) => ZSavedAudit.array().parse(v))).toHaveLength(
      0,
    );
  });

  it('shows AUDIT NOT FOUND for an unknown id, with a way back', async () => {
    await page.goto('/results/00000000-0000-4000-8000-000000000000');
    await page.getByRole('heading', { name: 'AUDIT NOT FOUND' }).waitFor();
    await saveScreenshot(page, 'run-audit-not-found');
    await page.getByRole('button', { name: 'back' }).click();
    await page.getByRole('button', { name: 'start ASO analysis' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('resumes a dropped progress stream with Last-Event-ID, without restarting the audit', async () => {
    // The first progress connection is cut after its third step event (the recorded answer is
    // replayed up to there, then the stream ends); the client must reconnect and resume.
    let cutAfterId: string | null = null;
    const progressRequests: { lastEventId: string | undefined }[] = [];
    let analyzeCalls = 0;
    page.on('request', (req) => {
      const path = new URL(req.url()).pathname;
      if (path === '/api/analyze') analyzeCalls += 1;
      if (path === '/api/progress')
        progressRequests.push({ lastEventId: req.headers()['last-event-id'] });
    });
    await page.route('**/api/progress?*', async (route) => {
      if (cutAfterId !== null) return route.continue();
      cutAfterId = '';
      const res = await route.fetch({ timeout: 90_000 });
      const messages = (await res.text()).split('\n\n');
      const kept: string[] = [];
      let steps = 0;
      for (const message of messages) {
        kept.push(message);
        if (/^event: ?step$/m.test(message)) steps += 1;
        if (steps === 3) break;
      }
      cutAfterId = /^id: ?(.+)$/m.exec(kept.at(-1) ?? '')?.[1] ?? '';
      const headers = Object.fromEntries(
        Object.entries(res.headers()).filter(
          ([k]) => !['content-length', 'transfer-encoding', 'content-encoding'].includes(k),
        ),
      );
      await route.fulfill({ status: res.status(), headers, body: `${kept.join('\n\n')}\n\n` });
    });
    try {
      await page.locator('#app-url').fill(SPOTIFY_URL);
      await page.getByRole('button', { name: 'start ASO analysis' }).click();
      await page.getByTestId('audit-result').waitFor({ timeout: 90_000 });
      await page.getByTestId('app-name').filter({ hasText: spotifyLookup.trackName }).waitFor();

      expect(analyzeCalls).toBe(1);
      expect(cutAfterId).toMatch(/\S/);
      expect(progressRequests.length).toBeGreaterThanOrEqual(2);
      expect(progressRequests[0]?.lastEventId).toBeUndefined();
      expect(progressRequests[1]?.lastEventId).toBe(cutAfterId);
    } finally {
      await page.unroute('**/api/progress?*');
    }
  });
});
