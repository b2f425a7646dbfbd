/**
 * axe-core on every screen, at 1440x900 and 390x844 (WCAG 2.0/2.1 A and AA, plus headings in
 * order, one main landmark and named dialogs; see `support/axe.ts`): the sign-in and sign-up
 * screen, the sign-in code dialog, the audit form with its errors and a toast, the progress
 * view during a run, the results, the standalone result page, the dashboard with data and its
 * metric selector and date picker open, the watchlist (empty and with listings), a watched
 * app's timeline, the alerts screen and the dashboard's Change impact card, the Keywords
 * screens (start, an app's page empty, with ranks, the gap matrix and a research, the removal
 * confirmation), the App Store Connect settings (empty, connected, imported) and the dashboard
 * on imported data (these also with nothing sticking out sideways at 390 px), the admin gate
 * and the unlocked admin screen, the 404 page and 'AUDIT NOT FOUND'. Each state is reached once
 * and checked at both sizes by resizing the page, which keeps the run short.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ZWatchItem } from '@aso/contracts';
import { CONSTRUCTED_APP, CONSTRUCTED_DAYS } from '@aso/appstore/recordings';
import { axeViolations, VIEWPORTS, type TAxeViolation } from './support/axe';
import { horizontalOverflow } from './support/layout';
import { launchBrowser, newAppPage, saveScreenshot, screenshotOnFailure } from './support/browser';
import { generateAccessCode } from './support/session';
import { CONVERSION, INSTAGRAM_URL, REDOWNLOADS, SPOTIFY_URL } from './support/samples';
import './support/provided';
import { applyJuneToAugust2025 } from './support/date-range';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');
const replayUrl = inject('replayUrl');

/** Violations of one screen state at one size. */
interface Finding {
  screen: string;
  size: keyof typeof VIEWPORTS;
  violations: TAxeViolation[];
}

/**
 * Checks the page as it is at both sizes and returns what axe found. `reopen` brings back a
 * state that a resize closes (a popover), and runs after each resize.
 */
async function checkBothSizes(
  page: Page,
  screen: string,
  reopen?: () => Promise<void>,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const size of ['desktop', 'phone'] as const) {
    await page.setViewportSize(VIEWPORTS[size]);
    if (reopen) await reopen();
    const violations = await axeViolations(page);
    if (violations.length > 0)
      await saveScreenshot(page, `a11y-${screen.replace(/\W+/g, '-')}-${size}`, {
        fullPage: false,
      });
    findings.push({ screen, size, violations });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  return findings;
}

/** Sets the replay server's as-of day (null: the newest recordings). */
async function setAsOf(day: string | null): Promise<void> {
  const res = await fetch(`${replayUrl}/__as-of${day ? `?day=${day}` : ''}`, {
    method: 'PUT',
    signal: AbortSignal.timeout(5_000),
  });
  if (!res.ok) throw new Error(`__as-of answered ${res.status}: ${await res.text()}`);
}

/** Calls the api as the page's signed-in user and parses the JSON answer. */
async function callApi(page: Page, path: string, method = 'GET', body?: unknown): Promise<unknown> {
  const token = await page.evaluate(() => localStorage.getItem('sessionToken'));
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  const text = await res.text();
  return text === '' ? null : JSON.parse(text);
}

function expectClean(findings: Finding[]): void {
  const failing = findings.filter((f) => f.violations.length > 0);
  expect(failing, JSON.stringify(failing, null, 2)).toEqual([]);
}

describe('accessibility (axe) on every screen at 1440x900 and 390x844', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    // Measured with reduced motion: contrast is a property of the settled screen, and a dialog
    // caught mid-fade (its animation restarted by a re-render) would be measured half opaque.
    ({ context, page } = await newAppPage(browser, baseUrl, VIEWPORTS.desktop, {
      reducedMotion: 'reduce',
    }));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  screenshotOnFailure(afterEach, () => page);

  it('sign-in and sign-up, with a toast, and the sign-in code dialog', async () => {
    const findings: Finding[] = [];
    await page.goto('/');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    findings.push(...(await checkBothSizes(page, 'sign-in')));

    await page.getByRole('button', { name: 'login', exact: true }).click();
    await page.getByText('Missing Information', { exact: true }).waitFor();
    findings.push(...(await checkBothSizes(page, 'sign-in with a toast')));

    await page.getByRole('button', { name: 'sign up', exact: true }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    findings.push(...(await checkBothSizes(page, 'sign-up')));

    const code = await generateAccessCode(baseUrl, adminCode);
    await page.getByLabel('Email').fill(`e2e-a11y-${Date.now()}@example.com`);
    await page.getByLabel('Invite code').fill(code);
    await page.getByRole('button', { name: 'sign up', exact: true }).first().click();
    const dialog = page.getByTestId('sign-in-code-dialog');
    await dialog.waitFor();
    // A resize would close the dialog: the phone size is checked by the next test's sign-up.
    const violations = await axeViolations(page);
    findings.push({ screen: 'sign-in code dialog', size: 'desktop', violations });
    await dialog.getByRole('button', { name: 'I have saved it' }).click();
    await dialog.waitFor({ state: 'detached' });
    expectClean(findings);
  });

  it('the audit form with its errors shown, and the saved lists in the phone sidebar', async () => {
    const findings: Finding[] = [];
    await page.getByRole('button', { name: 'start ASO analysis' }).waitFor();
    findings.push(...(await checkBothSizes(page, 'audit form')));

    await page.locator('#app-url').fill('https://play.google.com/store/apps/details?id=x');
    await page.locator('#competitor-url-1').focus();
    await page.locator('#competitor-url-1').fill('not a url');
    await page.locator('#competitor-url-2').focus();
    await page.getByTestId('invalid-url-hint').waitFor();
    await page.getByTestId('competitor-url-1-field').getByRole('alert').waitFor();
    // The main link's toast too (its toaster loads on demand): Escape closes the topmost
    // layer, and a toast appearing after the sidebar sheet opened would take the Escape below.
    await page.getByText('Invalid URL', { exact: true }).waitFor();
    findings.push(...(await checkBothSizes(page, 'audit form with errors')));

    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByTestId('sidebar-trigger').click();
    await page.locator('[data-mobile="true"]').getByTestId('user-email').waitFor();
    const violations = await axeViolations(page);
    findings.push({ screen: 'phone sidebar sheet', size: 'phone', violations });
    await page.keyboard.press('Escape');
    await page.locator('[data-mobile="true"]').waitFor({ state: 'detached' });
    await page.setViewportSize(VIEWPORTS.desktop);
    expectClean(findings);
  });

  it('the progress view during a run, the results and the standalone result page', async () => {
    const findings: Finding[] = [];
    // Hold the run in the middle: the first progress connection gets the recorded stream up
    // to its fourth step event, and reconnects wait until the checks are done.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let first = true;
    await page.route('**/api/progress?*', async (route) => {
      if (!first) {
        await released;
        return route.continue();
      }
      first = false;
      const res = await route.fetch({ timeout: 90_000 });
      const kept: string[] = [];
      let steps = 0;
      for (const message of (await res.text()).split('\n\n')) {
        kept.push(message);
        if (/^event: ?step$/m.test(message)) steps += 1;
        if (steps === 4) break;
      }
      await route.fulfill({
        status: res.status(),
        headers: { 'content-type': 'text/event-stream' },
        body: `${kept.join('\n\n')}\n\n`,
      });
    });
    try {
      await page.locator('#app-url').fill(SPOTIFY_URL);
      await page.locator('#competitor-url-1').fill(INSTAGRAM_URL);
      await page.getByRole('button', { name: 'start ASO analysis' }).click();
      await page.getByRole('heading', { name: 'ANALYZING YOUR APP' }).waitFor();
      await page.locator('[data-testid="progress-view"] [data-status="done"]').first().waitFor({
        timeout: 90_000,
      });
      findings.push(...(await checkBothSizes(page, 'progress view')));
    } finally {
      release();
    }
    await page.getByTestId('feedback-box').waitFor({ timeout: 90_000 });
    // Only now: a route still waiting would be continued twice.
    await page.unroute('**/api/progress?*');
    findings.push(...(await checkBothSizes(page, 'results')));

    await page.getByRole('button', { name: 'save audit' }).click();
    await page.getByText('Audit Saved', { exact: true }).waitFor();
    findings.push(...(await checkBothSizes(page, 'results with a toast')));

    // The delete confirmation of a saved audit (a resize would close it: desktop only).
    const saved = page.getByTestId('saved-audits').getByRole('listitem').first();
    await saved.hover();
    await saved.getByRole('button', { name: /^Delete / }).click();
    await page.getByRole('alertdialog').waitFor();
    findings.push({
      screen: 'delete confirmation',
      size: 'desktop',
      violations: await axeViolations(page),
    });
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });

    const auditId = await page.evaluate(async () => {
      const res = await fetch('/api/saved-audits', {
        headers: { authorization: `Bearer ${localStorage.getItem('sessionToken')}` },
      });
      return ((await res.json()) as { auditId: string }[])[0]?.auditId;
    });
    await page.goto(`/results/${auditId}`);
    await page.getByTestId('promo-block').waitFor();
    await page.getByTestId('feedback-box').waitFor();
    findings.push(...(await checkBothSizes(page, 'standalone result page')));

    // The share dialog with a new link and the list (a resize would close it: desktop only),
    // then the shared page in a browser without a session, and a revoked link.
    await page.getByRole('button', { name: 'share' }).click();
    const share = page.getByRole('dialog', { name: 'Share this audit' });
    await share.getByRole('button', { name: 'create link' }).click();
    const url = await share.getByTestId('share-url').inputValue();
    await share.getByTestId('share-link-row').waitFor();
    findings.push({
      screen: 'share dialog',
      size: 'desktop',
      violations: await axeViolations(page),
    });
    await page.keyboard.press('Escape');
    await share.waitFor({ state: 'detached' });
    const guest = await browser.newContext({
      viewport: VIEWPORTS.desktop,
      reducedMotion: 'reduce',
    });
    try {
      const view = await guest.newPage();
      await view.goto(url);
      await view.getByTestId('shared-page').getByTestId('app-name').waitFor();
      findings.push(...(await checkBothSizes(view, 'shared audit page')));
      await callApi(page, `/api/shares/${url.split('/s/')[1]}`, 'DELETE');
      await view.reload();
      await view.getByRole('heading', { name: 'LINK NOT AVAILABLE' }).waitFor();
      findings.push(...(await checkBothSizes(view, 'revoked share link')));
    } finally {
      await guest.close();
    }
    expectClean(findings);
  });

  it('the dashboard with data, its metric selector and date picker open', async () => {
    const findings: Finding[] = [];
    await page.goto('/');
    await page.getByRole('button', { name: 'dashboard', exact: true }).click();
    await page.getByTestId('upload-panel').waitFor();
    findings.push(...(await checkBothSizes(page, 'dashboard upload panel')));

    await page.getByRole('button', { name: 'How to export the conversion data file' }).click();
    await page.getByRole('dialog').waitFor();
    findings.push({
      screen: 'CSV help dialog',
      size: 'desktop',
      violations: await axeViolations(page),
    });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page
      .getByTestId('upload-conversionCSV')
      .locator('input[type=file]')
      .setInputFiles(CONVERSION);
    await page
      .getByTestId('upload-redownloadsCSV')
      .locator('input[type=file]')
      .setInputFiles(REDOWNLOADS);
    await page.getByRole('button', { name: 'upload CSV files' }).click();
    await page.getByTestId('chart-legend').waitFor({ timeout: 60_000 });
    await page.getByTestId('monthly-report').waitFor();
    findings.push(...(await checkBothSizes(page, 'dashboard with data')));

    const openSelector = async () => {
      if ((await page.getByTestId('metric-selector').count()) === 0)
        await page.getByTestId('metric-selector-trigger').click();
      await page.getByTestId('metric-selector').waitFor();
    };
    await openSelector();
    findings.push(...(await checkBothSizes(page, 'metric selector open', openSelector)));
    await page.keyboard.press('Escape');
    await page.getByTestId('metric-selector').waitFor({ state: 'detached' });

    const openPicker = async () => {
      if ((await page.getByTestId('date-range-popover').count()) === 0)
        await page.getByTestId('date-range-trigger').click();
      await page.getByTestId('date-range-popover').waitFor();
    };
    await openPicker();
    findings.push(...(await checkBothSizes(page, 'date picker open', openPicker)));
    await page.keyboard.press('Escape');
    await page.getByTestId('date-range-popover').waitFor({ state: 'detached' });

    // The whole 92 days: the line chart gets its zoom slider, checked with the rest.
    await openPicker();
    await applyJuneToAugust2025(page);
    await page.getByTestId('chart-zoom').waitFor();
    findings.push(...(await checkBothSizes(page, 'dashboard with a zoomable chart')));
    expectClean(findings);
  });

  it("the watchlist, a watched app's timeline, the alerts and the Change impact card", async () => {
    const findings: Finding[] = [];
    // The dashboard of the previous test stays open (in-app navigation keeps it).
    await page.getByTestId('nav-watchlist').click();
    await page
      .getByTestId('watchlist-page')
      .getByText('You are not watching any listing yet.', { exact: false })
      .waitFor();
    findings.push(...(await checkBothSizes(page, 'watchlist empty')));

    // A listing watched through the watchlist screen and read once (as of its first recorded
    // day, the state the other browser tests start from); its changes are checked with axe by
    // the watch tests, which make them.
    await setAsOf(CONSTRUCTED_DAYS[0]);
    try {
      await page.getByLabel('App Store link').fill(CONSTRUCTED_APP.url);
      await page.getByTestId('watch-submit').click();
      await page.getByTestId('watch-item').waitFor();
      await expect
        .poll(
          async () => {
            const list = ZWatchItem.array().parse(await callApi(page, '/api/watchlist'));
            return list[0]?.lastCheckedAt ?? null;
          },
          { timeout: 60_000, interval: 500 },
        )
        .not.toBeNull();
    } finally {
      await setAsOf(null);
    }

    await page.getByRole('button', { name: 'dashboard', exact: true }).click();
    const card = page.getByTestId('change-impact');
    await card.getByTestId('impact-app-picker').waitFor();
    await card.getByTestId('impact-app-picker').selectOption(`${CONSTRUCTED_APP.appId}:us`);
    await card
      .locator('[data-testid="impact-change"], [data-testid="impact-no-changes"]')
      .first()
      .waitFor();
    findings.push(...(await checkBothSizes(page, 'dashboard change impact')));

    await page.goto('/watchlist');
    await page.getByTestId('watch-item').waitFor();
    findings.push(...(await checkBothSizes(page, 'watchlist')));
    await page.goto(`/apps/${CONSTRUCTED_APP.appId}?storefront=us`);
    await page.getByTestId('timeline-header').waitFor();
    await page.getByTestId('rating-chart').locator('canvas').waitFor();
    findings.push(...(await checkBothSizes(page, 'timeline')));
    await page.goto('/alerts');
    await page.getByTestId('webhook-form').waitFor();
    await page.getByRole('heading', { name: /^Notifications/ }).waitFor();
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    findings.push(...(await checkBothSizes(page, 'alerts')));
    expectClean(findings);
  });

  it('the Keywords screens: start, empty, with ranks, research and a confirmation', async () => {
    const findings: Finding[] = [];
    // The listing watched by the previous test (Calm Notes) is on the start screen.
    await page.getByTestId('nav-keywords').click();
    await page.getByRole('heading', { name: 'Keywords', level: 1 }).waitFor();
    await page.getByTestId('keywords-apps').getByRole('link').first().waitFor();
    findings.push(...(await checkBothSizes(page, 'keywords start')));
    await page.getByTestId('keywords-apps').getByRole('link').first().click();
    await page.getByText(/^No term tracked for this app/).waitFor();
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    findings.push(...(await checkBothSizes(page, 'keywords page empty')));

    await page.getByLabel('Terms to track').fill('journal, mood tracker');
    await page.getByRole('button', { name: 'track 2 terms' }).click();
    for (const term of ['journal', 'mood tracker'])
      await page
        .locator(`[data-testid="keyword-row"][data-term="${term}"] [data-state="ranked"]`)
        .waitFor({ timeout: 30_000 });
    await page.getByTestId('gap-table').waitFor();
    findings.push(...(await checkBothSizes(page, 'keywords page with ranks')));

    await page.getByLabel('Term to research').fill('mood tracker');
    await page.getByTestId('research-submit').click();
    await page.getByTestId('research-result').waitFor({ timeout: 30_000 });
    findings.push(...(await checkBothSizes(page, 'keywords research')));

    // The removal confirmation (a resize would close it: desktop only).
    await page
      .locator('[data-testid="keyword-row"][data-term="journal"]')
      .getByTestId('keyword-remove')
      .click();
    await page.getByRole('alertdialog').waitFor();
    // Reduced motion: the dialog and its overlay are in place at once, not fading in.
    const fading = await page.evaluate<number>(
      'document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).length',
    );
    expect(fading).toBe(0);
    findings.push({
      screen: 'keyword removal confirmation',
      size: 'desktop',
      violations: await axeViolations(page),
    });
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expectClean(findings);
  });

  it('App Store Connect settings (empty, connected, imported) and the dashboard on imported data, with nothing sticking out at 390 px', async () => {
    const findings: Finding[] = [];
    /** What sticks out sideways at the phone's width (nothing may). */
    const overflowAtPhone = async (screen: string) => {
      await page.setViewportSize(VIEWPORTS.phone);
      try {
        expect(await horizontalOverflow(page), screen).toEqual([]);
      } finally {
        await page.setViewportSize(VIEWPORTS.desktop);
      }
    };
    await page.goto('/settings/app-store-connect');
    await page.getByText('No key connected yet').waitFor();
    findings.push(...(await checkBothSizes(page, 'app store connect settings empty')));
    await overflowAtPhone('app store connect settings empty');

    await page.getByTestId('asc-demo-connect').click();
    const app = page.locator(`[data-testid="asc-app"][data-app-id="${CONSTRUCTED_APP.appId}"]`);
    await app.waitFor();
    findings.push(...(await checkBothSizes(page, 'app store connect settings connected')));
    await app.getByTestId('asc-import').click();
    await app
      .locator('[data-testid="asc-import-state"][data-state="done"]')
      .waitFor({ timeout: 90_000 });
    findings.push(...(await checkBothSizes(page, 'app store connect settings imported')));
    await overflowAtPhone('app store connect settings imported');

    // The listing watched by the previous test has the demo app's Apple ID: the change impact
    // card of the imported data finds it by that id.
    await app.getByTestId('asc-open-dashboard').click();
    await page.getByTestId('asc-dashboard').getByTestId('kpi-report').waitFor();
    await page
      .getByTestId('change-impact')
      .locator('[data-testid="impact-change"], [data-testid="impact-no-changes"]')
      .first()
      .waitFor();
    findings.push(...(await checkBothSizes(page, 'dashboard on imported data')));
    await overflowAtPhone('dashboard on imported data');
    expectClean(findings);
  });

  it('the admin gate and the unlocked admin screen', async () => {
    const findings: Finding[] = [];
    await page.goto('/admin');
    const gate = page.getByTestId('admin-gate');
    await gate.waitFor();
    findings.push(...(await checkBothSizes(page, 'admin gate')));
    await gate.getByLabel('Admin code').fill(adminCode);
    await gate.getByRole('button', { name: 'unlock admin' }).click();
    await page.getByTestId('admin-dashboard').waitFor();
    await page.getByTestId('audit-history-row').first().waitFor();
    findings.push(...(await checkBothSizes(page, 'admin screen')));
    expectClean(findings);
  });

  it("the 404 page and 'AUDIT NOT FOUND'", async () => {
    const findings: Finding[] = [];
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    findings.push(...(await checkBothSizes(page, '404')));
    await page.goto('/results/00000000-0000-4000-8000-000000000000');
    await page.getByRole('heading', { name: 'AUDIT NOT FOUND' }).waitFor();
    findings.push(...(await checkBothSizes(page, 'audit not found')));
    expectClean(findings);
  });
});
