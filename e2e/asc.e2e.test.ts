/**
 * Browser test of App Store Connect, by keyboard where a user would use one: connecting the
 * offline demo's key (the stand-in with CONSTRUCTED reports) after a refused key shown in
 * words, "import now" with its progress to done, then the dashboard on the imported app:
 * its listing found by Apple ID once watched (change impact), a territory filter, saving it,
 * the CSV export, reopening it from the sidebar and its PDF, and what it says once its key is
 * removed. Both sizes are checked with axe, and at 390 px nothing may stick out sideways;
 * screenshots go to `artifacts/e2e/`.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONSTRUCTED_APP, CONSTRUCTED_DAYS } from '@aso/appstore/recordings';
import { axeViolations, VIEWPORTS } from './support/axe';
import { launchBrowser, newAppPage, saveScreenshot, screenshotOnFailure } from './support/browser';
import { focusIsVisible, isFocused, tabTo } from './support/keyboard';
import { horizontalOverflow } from './support/layout';
import { pdfText, squash } from './support/pdf-text';
import { generateAccessCode, signUpThroughUi } from './support/session';
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

/** Calls the api as the page's signed-in user and parses the JSON answer. */
async function callApi(page: Page, path: string, method = 'GET'): Promise<unknown> {
  const token = await page.evaluate(() => localStorage.getItem('sessionToken'));
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  const text = await res.text();
  return text === '' ? null : JSON.parse(text);
}

/** Tabs to `target`, checks its focus shows, and presses Enter on it. */
async function press(page: Page, target: Locator, opts: { backwards?: boolean } = {}) {
  await tabTo(page, target, opts);
  expect(await focusIsVisible(page)).toBe(true);
  await page.keyboard.press('Enter');
}

/** Checks the page at both sizes: axe, a screenshot each, and no sideways overflow at 390 px. */
async function checkSizes(page: Page, name: string, root?: string) {
  try {
    for (const size of ['desktop', 'phone'] as const) {
      await page.setViewportSize(VIEWPORTS[size]);
      await saveScreenshot(page, `${name}-${size}`);
      expect(await axeViolations(page), `${name} at ${size}`).toEqual([]);
      if (size === 'phone') expect(await horizontalOverflow(page, root), name).toEqual([]);
    }
  } finally {
    await page.setViewportSize(VIEWPORTS.desktop);
  }
}

describe('App Store Connect: connect, import, the dashboard on imported data', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newAppPage(browser, baseUrl, VIEWPORTS.desktop));
    const code = await generateAccessCode(baseUrl, adminCode);
    await signUpThroughUi(page, code, 'asc');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  screenshotOnFailure(afterEach, () => page);

  it('by keyboard: refuses an incomplete form and a key that is not EC P-256 in words, connects the demo key and imports an app', async () => {
    await page.getByTestId('nav-asc').click();
    await page.getByRole('heading', { name: 'App Store Connect' }).waitFor();
    await page.getByText('No key connected yet').waitFor();
    await checkSizes(page, 'asc-settings-empty', '[data-testid="asc-page"]');

    // The form's fields in order, then its button with nothing typed.
    await tabTo(page, page.getByLabel('Name'));
    expect(await focusIsVisible(page)).toBe(true);
    await press(page, page.getByTestId('asc-submit'));
    await expect.poll(() => page.getByTestId('asc-error').textContent()).toBe('Enter a name.');
    await tabTo(page, page.getByLabel('Name'), { backwards: true });
    await page.keyboard.type('Mine');
    await page.keyboard.press('Tab');
    expect(await isFocused(page.getByLabel('Issuer ID'))).toBe(true);
    await page.keyboard.type('57246542-96fe-1a63-e053-0824d011072a');
    await page.keyboard.press('Tab');
    expect(await isFocused(page.getByLabel('Key ID'))).toBe(true);
    await page.keyboard.type('2X9R4HXF34');
    await page.keyboard.press('Tab');
    expect(await isFocused(page.getByLabel('Private key (.p8 file contents)'))).toBe(true);
    await page.keyboard.type('not a key');
    await page.keyboard.press('Tab');
    expect(await isFocused(page.getByTestId('asc-submit'))).toBe(true);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('asc-error').textContent())
      .toMatch(/PEM text of the \.p8 file/);
    // The refusal is announced and named by the key field.
    expect(
      await page.getByLabel('Private key (.p8 file contents)').getAttribute('aria-invalid'),
    ).toBe('true');
    await checkSizes(page, 'asc-settings-refused', '[data-testid="asc-page"]');

    await press(page, page.getByTestId('asc-demo-connect'), { backwards: true });
    const app = page.locator(`[data-testid="asc-app"][data-app-id="${CONSTRUCTED_APP.appId}"]`);
    await app.waitFor();
    expect(await page.getByTestId('asc-app').count()).toBe(2);
    // Not imported yet: each app says what the first import does.
    expect(await app.getByTestId('asc-import-state').textContent()).toMatch(/Not imported yet/);
    await checkSizes(page, 'asc-settings-connected', '[data-testid="asc-page"]');

    await press(page, app.getByTestId('asc-import'));
    await app
      .locator('[data-testid="asc-import-state"][data-state="done"]')
      .waitFor({ timeout: 90_000 });
    expect(await app.getByTestId('asc-import-state').textContent()).toMatch(/\d+ daily reports/);
    await app.getByTestId('asc-open-dashboard').waitFor();
    await checkSizes(page, 'asc-settings', '[data-testid="asc-page"]');
  });

  it('by keyboard: opens the imported app on the dashboard, finds its watched listing by Apple ID, filters, saves and exports it', async () => {
    const app = page.locator(`[data-testid="asc-app"][data-app-id="${CONSTRUCTED_APP.appId}"]`);
    // Beside "import now", which kept the focus through the import.
    await press(page, app.getByTestId('asc-open-dashboard'), { backwards: true });
    const view = page.getByTestId('asc-dashboard');
    await view.waitFor();
    expect(await page.getByTestId('dashboard-source').inputValue()).toMatch(
      new RegExp(`/${CONSTRUCTED_APP.appId}$`),
    );
    await page.getByTestId('applied-range').waitFor();
    await page.getByTestId('asc-provisional').waitFor();
    await page.getByTestId('asc-impressions-note').waitFor();

    // Change impact: no listing of this Apple ID watched yet; watching it from the card reads
    // the constructed listing, which changes between two recorded days.
    const card = page.getByTestId('change-impact');
    await card.getByTestId('impact-no-app').waitFor();
    await setAsOf(CONSTRUCTED_DAYS[0]);
    try {
      await press(page, card.getByTestId('impact-watch-app'));
      const read = async () => {
        const list = (await callApi(page, '/api/watchlist')) as Array<{
          id: string;
          appId: string;
          lastCheckedAt: string | null;
        }>;
        return list.find((w) => w.appId === CONSTRUCTED_APP.appId) ?? null;
      };
      await expect
        .poll(async () => (await read())?.lastCheckedAt ?? null, { timeout: 60_000 })
        .not.toBeNull();
      const first = (await read())!;
      await setAsOf(CONSTRUCTED_DAYS[1]);
      await callApi(page, `/api/watchlist/${first.id}/refresh`, 'POST');
      await expect
        .poll(async () => (await read())?.lastCheckedAt, { timeout: 60_000 })
        .not.toBe(first.lastCheckedAt);
    } finally {
      await setAsOf(null);
    }
    // Read again from the start (the listing's history is cached for the visit): the card
    // finds the watched listing by the app's Apple ID and shows its change.
    await page.reload();
    await page.getByRole('button', { name: 'dashboard', exact: true }).click();
    await page
      .getByTestId('dashboard-source')
      .selectOption({ label: 'App Store Connect: Calm Notes' });
    await card.getByTestId('impact-change').first().waitFor({ timeout: 30_000 });
    expect(await card.textContent()).toMatch(/found by its Apple ID/);

    // A territory by keyboard: the KPI report follows it.
    const all = await page.getByTestId('kpi-report').textContent();
    await tabTo(page, page.getByTestId('asc-territory'));
    expect(await focusIsVisible(page)).toBe(true);
    await page.getByTestId('asc-territory').selectOption('GB');
    await expect.poll(() => page.getByTestId('kpi-report').textContent()).not.toBe(all);

    await press(page, page.getByTestId('asc-save'));
    await page.getByText('Dashboard Saved', { exact: true }).waitFor();
    const saved = page.getByTestId('saved-dashboards').getByTestId('saved-dashboard');
    await expect
      .poll(() => saved.first().textContent())
      .toMatch(/Calm Notes GB .*App Store Connect/);

    const exported = page.waitForEvent('download');
    await press(page, page.getByTestId('asc-export'), { backwards: true });
    const file = await exported;
    const applied = (await page.getByTestId('applied-range').textContent()) ?? '';
    expect(file.suggestedFilename()).toMatch(
      /^calm-notes-gb-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const lines = readFileSync(await file.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]!.startsWith('Date,')).toBe(true);
    expect(lines[0]).toContain('App Store search Impressions');
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2},/);
    expect(lines.length).toBeGreaterThan(10);
    expect(applied).toMatch(/Applied:/);

    await checkSizes(page, 'asc-dashboard', '[data-testid="dashboard-content"]');
  });

  it('reopens the saved dashboard from the sidebar with its filter, and downloads its PDF', async () => {
    await page.getByTestId('dashboard-source').selectOption({ label: 'Uploaded exports' });
    await page.getByTestId('asc-dashboard').waitFor({ state: 'detached' });
    await page.getByTestId('saved-dashboards').getByTestId('saved-dashboard').first().click();
    await page.getByTestId('asc-dashboard').waitFor();
    expect(await page.getByTestId('asc-territory').inputValue()).toBe('GB');
    await page.getByTestId('kpi-report').waitFor();

    const download = page.waitForEvent('download', { timeout: 120_000 });
    await page.getByTestId('asc-dashboard').getByTestId('download-pdf').click();
    const pdf = await download;
    expect(pdf.suggestedFilename()).toMatch(/^calm-notes-gb-.*-report\.pdf$/);
    const { text } = await pdfText(readFileSync(await pdf.path()));
    const printed = squash(text);
    expect(printed).toContain('Imported from App Store Connect (GB, All devices)');
    expect(printed).toContain('KPI report');
    expect(printed).toContain('First-time conversion rate');
  });

  it('says so when the key of a saved dashboard was removed', async () => {
    await page.getByTestId('nav-asc').click();
    const connection = page.getByTestId('asc-connection');
    await connection.getByRole('button', { name: /^Remove the key/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No key connected yet').waitFor();

    await page.getByTestId('saved-dashboards').getByTestId('saved-dashboard').first().click();
    const gone = page.getByTestId('asc-gone');
    await gone.waitFor();
    expect(squash((await gone.textContent()) ?? '')).toMatch(
      /The App Store Connect key of Calm Notes was removed/,
    );
    // The source choice keeps the way back to the uploads.
    expect(await page.getByTestId('dashboard-source').inputValue()).not.toBe('uploads');
    await checkSizes(page, 'asc-dashboard-gone', '[data-testid="dashboard-content"]');
  });
});
