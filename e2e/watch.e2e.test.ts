/**
 * Browser tests of watched listings: 'watch' on an audit's results (the app as mine, a
 * competitor as competitor), the watchlist with its reads, a refresh that finds the listing
 * changed (the replay server answers as of a later day from the project's CONSTRUCTED
 * recordings of "Calm Notes"), the timeline with every changed field's before and after, the
 * unread count in the sidebar and the alerts screen, the webhook form showing the server's
 * refusal of a private address, and the change's marker and "Change impact" entry on a
 * dashboard of that app, the timeline and the card also checked with axe. Screenshots go to
 * `artifacts/e2e/`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  changeKind,
  ZHistoryAnswer,
  ZNotificationList,
  ZWatchItem,
  type TChangeField,
  type THistoryAnswer,
  type TWatchItem,
} from '@aso/contracts';
import { CONSTRUCTED_APP, CONSTRUCTED_CHANGES, CONSTRUCTED_DAYS } from '@aso/appstore/recordings';
import { axeViolations, VIEWPORTS } from './support/axe';
import { launchBrowser, newAppPage, saveScreenshot, screenshotOnFailure } from './support/browser';
import { generateAccessCode, signUpThroughUi } from './support/session';
import { CSV_DIR, INSTAGRAM_URL } from './support/samples';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');
const replayUrl = inject('replayUrl');

/** Sets the replay server's as-of day (null: the newest recordings). */
async function setAsOf(day: string | null): Promise<void> {
  const res = await fetch(`${replayUrl}/__as-of${day ? `?day=${day}` : ''}`, {
    method: 'PUT',
    signal: AbortSignal.timeout(5_000),
  });
  if (!res.ok) throw new Error(`__as-of answered ${res.status}: ${await res.text()}`);
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

async function unread(page: Page): Promise<number> {
  const res = await api(page, '/api/notifications/unread-count');
  return ((await res.json()) as { unread: number }).unread;
}

async function watchlist(page: Page): Promise<TWatchItem[]> {
  const res = await api(page, '/api/watchlist');
  return ZWatchItem.array().parse(await res.json());
}

async function history(page: Page): Promise<THistoryAnswer> {
  const res = await api(
    page,
    `/api/apps/${CONSTRUCTED_APP.appId}/history?storefront=${CONSTRUCTED_APP.storefront}`,
  );
  return ZHistoryAnswer.parse(await res.json());
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (iso: string, n: number) =>
  isoDay(new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000));
const ascDate = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${m}/${d}/${String(y).slice(2)}`;
};
const longDay = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1]} ${d}, ${y}`;
};

/**
 * The constructed Calm Notes exports with their 30 days moved to start at `start` (the same
 * daily figures), written to a temporary folder: the change found today must fall inside the
 * dashboard's days. Returns the two files and the daily total first-time downloads by day.
 */
function shiftedExports(start: string) {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-watch-'));
  const original = '2025-07-20';
  const daysOf = (text: string) => text.match(/^\d{1,2}\/\d{1,2}\/\d{2},/gm)!.length;
  const files = ['conversion', 'redownloads'].map((kind) => {
    const name = `constructed_${kind}_calm-notes_united-kingdom_2025-07-20_2025-08-18.csv`;
    let text = readFileSync(join(CSV_DIR, name), 'utf8');
    const n = daysOf(text);
    text = text.replace(
      '"Jul 20, 2025 - Aug 18, 2025"',
      `"${longDay(start)} - ${longDay(addDays(start, n - 1))}"`,
    );
    for (let i = 0; i < n; i++) {
      text = text.replace(
        new RegExp(`^${ascDate(addDays(original, i)).replace(/\//g, '\\/')},`, 'm'),
        `${ascDate(addDays(start, i))},`,
      );
    }
    const path = join(dir, name.replace('2025-07-20_2025-08-18', `shifted-${start}`));
    writeFileSync(path, text);
    return { path, text };
  });
  // Daily 'Total First-Time Downloads' of the conversion export, independently of the app.
  const lines = files[0]!.text.split(/\r?\n/);
  const headerAt = lines.findIndex((l) => l.startsWith('"Date"'));
  const header = lines[headerAt]!.split(',').map((h) => h.replace(/"/g, ''));
  const col = header.indexOf('Total First-Time Downloads');
  const totals = new Map<string, number>();
  for (const line of lines.slice(headerAt + 1)) {
    const cells = line.split(',');
    const [m, d, y] = (cells[0] ?? '').split('/').map(Number);
    if (!m || !d || y === undefined) continue;
    const day = `20${String(y).padStart(2, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    totals.set(day, Number(cells[col]));
  }
  return { conversion: files[0]!.path, redownloads: files[1]!.path, totals };
}

describe('watching a listing: results, watchlist, timeline, alerts and dashboard', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    await setAsOf(CONSTRUCTED_DAYS[0]);
    browser = await launchBrowser();
    ({ context, page } = await newAppPage(browser, baseUrl, { width: 1440, height: 900 }));
    const code = await generateAccessCode(baseUrl, adminCode);
    await signUpThroughUi(page, code, 'watch');
  });
  afterAll(async () => {
    await setAsOf(null);
    await context?.close();
    await browser?.close();
  });
  screenshotOnFailure(afterEach, () => page);

  it('watches the audited app as mine and a competitor from the results page', async () => {
    await page.locator('#app-url').fill(CONSTRUCTED_APP.url);
    await page.locator('#competitor-url-1').fill(INSTAGRAM_URL);
    await page.getByRole('button', { name: 'start ASO analysis' }).click();
    await page.getByTestId('feedback-box').waitFor({ timeout: 90_000 });

    const mine = page.getByTestId('app-header').getByTestId('watch-button');
    await mine.click();
    await page.getByText('Watching', { exact: true }).first().waitFor();
    await page
      .getByTestId('app-header')
      .locator('[data-testid="watch-button"][data-watched="true"]')
      .waitFor();

    const rival = page.getByTestId('competitor-row').nth(1).getByTestId('watch-button');
    await rival.click();
    await page.getByTestId('competitor-row').nth(1).locator('[data-watched="true"]').waitFor();
    await saveScreenshot(page, 'watch-results');

    const items = await watchlist(page);
    expect(items.map((i) => [i.appId, i.storefront, i.role]).sort()).toEqual(
      [
        [CONSTRUCTED_APP.appId, 'us', 'mine'],
        ['389801252', 'us', 'competitor'],
      ].sort(),
    );
  });

  it('lists both on the watchlist screen with their first read', async () => {
    await page.getByTestId('nav-watchlist').click();
    await page.getByRole('heading', { name: 'Watchlist', level: 1 }).waitFor();
    const row = page.locator(`[data-testid="watch-item"][data-app-id="${CONSTRUCTED_APP.appId}"]`);
    // The first read runs when the listing is watched; the list shows it once read.
    await expect
      .poll(
        async () => {
          await page.reload();
          await row.waitFor();
          return (await row.getByTestId('watch-item-checked').textContent()) ?? '';
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toMatch(/^Last read /);
    expect(await page.getByTestId('watch-item').count()).toBe(2);
    expect(await row.getByTestId('watch-item-name').textContent()).toBe(
      (await watchlist(page)).find((i) => i.appId === CONSTRUCTED_APP.appId)!.appName,
    );
    expect(await row.getByText('my app', { exact: true }).count()).toBe(1);
    await saveScreenshot(page, 'watchlist-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(page, 'watchlist-390');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('finds the changes of a refresh and shows them on the timeline, newest first', async () => {
    // Other tests may have read this listing before (as of the first day only): only what
    // this refresh finds is checked.
    const row = page.locator(`[data-testid="watch-item"][data-app-id="${CONSTRUCTED_APP.appId}"]`);
    const known = new Set((await history(page)).changes.map((c) => c.id));
    await setAsOf(CONSTRUCTED_DAYS[1]);
    await row.getByTestId('watch-item-refresh').click();
    await page.getByText('Refresh queued', { exact: true }).waitFor();
    await expect
      .poll(async () => (await history(page)).changes.filter((c) => !known.has(c.id)).length, {
        timeout: 60_000,
        interval: 500,
      })
      .toBeGreaterThan(0);
    const all = await history(page);
    const newest = all.changes[0]!.snapshotId;
    expect(known.has(all.changes[0]!.id)).toBe(false);
    const answer = { ...all, changes: all.changes.filter((c) => c.snapshotId === newest) };

    await row.getByRole('link', { name: /^Timeline of / }).click();
    await page.getByTestId('timeline-app-name').waitFor();
    const expected: readonly TChangeField[] = CONSTRUCTED_CHANGES[CONSTRUCTED_DAYS[1]];
    const group = page.getByTestId('change-group').first();
    const shown = await group
      .getByTestId('change')
      .evaluateAll((els: { getAttribute(name: string): string | null }[]) =>
        els.map((e) => e.getAttribute('data-field')),
      );
    // Each differing field is a change, nothing else, in the history's order.
    expect([...shown].sort()).toEqual([...expected].sort());
    expect(shown).toEqual(answer.changes.map((c) => c.field));
    expect(await page.getByTestId('change-group').count()).toBe(
      new Set(all.changes.map((c) => c.snapshotId)).size,
    );

    // The title's words: what went in the before column, what came in the after one.
    const title = group.locator('[data-testid="change"][data-field="title"]');
    const before = answer.changes.find((c) => c.field === 'title')!.before as string;
    const after = answer.changes.find((c) => c.field === 'title')!.after as string;
    expect(
      await title.locator('[data-side="before"] [data-testid="diff-text"]').textContent(),
    ).toBe(before);
    expect(await title.locator('[data-side="after"] [data-testid="diff-text"]').textContent()).toBe(
      after,
    );
    expect(await title.locator('[data-side="before"] del').count()).toBeGreaterThan(0);
    expect(await title.locator('[data-side="after"] ins').count()).toBeGreaterThan(0);
    // Screenshots side by side, the new one marked.
    const phone = group.locator('[data-testid="change"][data-field="screenshots.iphone"]');
    expect(
      await phone.locator('[data-side="after"]').getByText('added', { exact: true }).count(),
    ).toBe(1);

    // Rating and rank over time, drawn.
    await page.getByTestId('rating-chart').locator('canvas').waitFor();
    await page.getByTestId('rank-chart').locator('canvas').waitFor();
    for (const size of ['desktop', 'phone'] as const) {
      await page.setViewportSize(VIEWPORTS[size]);
      expect(await axeViolations(page), `timeline at ${size}`).toEqual([]);
    }
    await page.setViewportSize(VIEWPORTS.desktop);
    await saveScreenshot(page, 'timeline-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(page, 'timeline-390');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('counts the unread notification in the sidebar and lists it on the alerts screen', async () => {
    // The notification of the refresh's change, written once the change is stored.
    const newestAt = (await history(page)).changes[0]!.detectedAt;
    const notificationsNow = async () =>
      ZNotificationList.parse(await (await api(page, '/api/notifications')).json());
    await expect
      .poll(async () => (await notificationsNow()).items[0]?.detectedAt, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(newestAt);
    const expected = await unread(page);
    expect(expected).toBeGreaterThan(0);
    await page.reload();
    await expect.poll(() => page.getByTestId('unread-count').textContent()).toBe(String(expected));

    await page.getByTestId('nav-alerts').click();
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    const notifications = page.getByTestId('notification');
    await notifications.first().waitFor();
    const notification = notifications.first();
    expect(await notification.getAttribute('data-unread')).toBe('true');
    const listing = CONSTRUCTED_CHANGES[CONSTRUCTED_DAYS[1]].filter(
      (f) => changeKind(f) === 'listing',
    );
    const text = (await notification.textContent()) ?? '';
    expect(text).toContain('Title');
    expect(text).toContain('Screenshots (iPhone)');
    expect(listing.length).toBeGreaterThan(0);
    await saveScreenshot(page, 'alerts-1440');

    await page.getByTestId('mark-all-read').click();
    await page.getByTestId('unread-count').waitFor({ state: 'detached' });
    expect(await unread(page)).toBe(0);
  });

  it("shows the server's refusal of a private webhook address", async () => {
    const url = 'http://10.0.0.7/hook';
    const refused = await api(page, '/api/webhook', {
      method: 'PUT',
      body: JSON.stringify({ url }),
    });
    expect(refused.status).toBe(400);
    const { message } = (await refused.json()) as { message: string };
    await page.getByLabel('Webhook URL').fill(url);
    await page.getByTestId('webhook-save').click();
    await expect.poll(() => page.getByTestId('webhook-error').textContent()).toBe(message);
    await saveScreenshot(page, 'alerts-webhook-refused');
  });

  it('marks the change on a dashboard of the app and lists it under Change impact', async () => {
    const today = isoDay(new Date());
    // 30 days from 20 days ago: the 7 days before the change and the 7 after are covered.
    const files = shiftedExports(addDays(today, -20));
    await page.getByRole('button', { name: 'dashboard', exact: true }).click();
    await page
      .getByTestId('upload-conversionCSV')
      .locator('input[type=file]')
      .setInputFiles(files.conversion);
    await page
      .getByTestId('upload-redownloadsCSV')
      .locator('input[type=file]')
      .setInputFiles(files.redownloads);
    await page.getByRole('button', { name: 'upload CSV files' }).click();
    const card = page.getByTestId('change-impact');
    await card.waitFor({ timeout: 60_000 });

    // The export names 'Calm Notes: Journal & Mood' in the United Kingdom; the watched listing
    // is now 'Calm Notes: Mood Journal' in the US: the user says which app the data is about.
    await card.getByTestId('impact-choose').waitFor();
    const picker = card.getByTestId('impact-app-picker');
    await picker.selectOption(`${CONSTRUCTED_APP.appId}:us`);
    await card.getByTestId('impact-change').first().waitFor();

    const answer = await history(page);
    const listing = answer.changes.filter((c) => changeKind(c.field) === 'listing');
    const event = listing[0]!;
    const found = event.detectedAt.slice(0, 10);
    const lastSeen = event.previousAt.slice(0, 10);
    // One entry per read that found listing changes, newest first.
    const entries = card.getByTestId('impact-change');
    expect(await entries.count()).toBe(new Set(listing.map((c) => c.snapshotId)).size);
    expect(await entries.first().locator('h3').textContent()).toContain('Title');

    // The markers: named on the line chart and on the source charts.
    const lineLabel = await page
      .locator('[data-testid="analytics-chart-card"] [role="img"]')
      .getAttribute('aria-label');
    expect(lineLabel).toContain(`listing changes marked on ${longDay(found)}`);
    expect(
      await page
        .locator('[data-testid="source-chart-search"] [role="img"]')
        .getAttribute('aria-label'),
    ).toContain('listing changes marked on');

    // 7 days each side: all sources' first-time downloads before, computed here from the file.
    await card.getByTestId('impact-window-7').check({ force: true });
    const days = Array.from({ length: 7 }, (_, i) => addDays(lastSeen, -7 + i));
    const mean = days.reduce((s, d) => s + files.totals.get(d)!, 0) / 7;
    const row = entries
      .first()
      .locator('[data-testid="impact-row"][data-scope="total"][data-metric="firstTimeDownloads"]');
    const cells = await row.locator('td').allTextContents();
    expect(cells[2]).toBe(mean.toLocaleString('en-US', { maximumFractionDigits: 1 }));
    const verdicts = await card.getByTestId('impact-verdict').count();
    expect(verdicts).toBeGreaterThan(0);
    expect(await card.getByTestId('impact-rule').textContent()).toContain(
      '± 2 standard deviations',
    );
    for (const size of ['desktop', 'phone'] as const) {
      await page.setViewportSize(VIEWPORTS[size]);
      expect(await axeViolations(page), `Change impact at ${size}`).toEqual([]);
    }
    await page.setViewportSize(VIEWPORTS.desktop);
    await saveScreenshot(page, 'dashboard-change-impact-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(page, 'dashboard-change-impact-390');
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
