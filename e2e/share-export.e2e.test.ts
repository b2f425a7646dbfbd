/**
 * Browser tests of sharing and exporting, at 1440x900 and 390x844: the result view links to
 * its own page `/results/{id}` (private: a colleague is told to ask for a share link); 'share'
 * makes a read-only link `/s/{token}` that opens in a fresh browser without a session (no
 * cookie, noindex) with the result and its PDF, until revoked; 'Download PDF' on the results
 * page, the standalone page and the dashboard gives a PDF rendered by the render worker whose
 * text (read with pdf.js) carries the page's texts and none of the screen's controls.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import {
  storeDataWhen,
  ZAnalyzeAnswer,
  ZAudit,
  ZDashboard,
  ZUploadResult,
  type TAudit,
} from '@aso/contracts';
import { launchBrowser, newAppPage, saveScreenshot, screenshotOnFailure } from './support/browser';
import { ARTIFACTS_DIR } from './support/paths';
import { pdfText, squash } from './support/pdf-text';
import { generateAccessCode, signUpThroughUi } from './support/session';
import { CSV_DIR, INSTAGRAM_URL, SPOTIFY_URL } from './support/samples';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');
const databaseUrl = inject('databaseUrl');

/** The stored PDF's version and render time of an audit (documents table). */
async function storedDocument(auditId: string): Promise<{ version: string; rendered_at: Date }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const res = await client.query<{ version: string; rendered_at: Date }>(
      "select version, rendered_at from documents where kind = 'audit' and subject_id = $1",
      [auditId],
    );
    if (!res.rows[0]) throw new Error(`no document for audit ${auditId}`);
    return res.rows[0];
  } finally {
    await client.end();
  }
}

/** Texts of screen controls and hints that a printed report must not carry. */
const SCREEN_ONLY = [
  'Skip to main content',
  'Swipe sideways',
  'Read more',
  'Read less',
  'preparing PDF',
  'Download PDF',
  'save audit',
  'new analysis',
  'How this is scored show',
  'How this is scored hide',
];

/** The dashboard's controls and hints, which its printed report must not carry either. */
const DASHBOARD_SCREEN_ONLY = [
  'select metrics to display',
  'search metrics',
  'select all',
  'clear all',
  'upload CSV files',
  'download processed CSV',
  'generate new dashboard',
  'export CSV',
  'save dashboard',
  'choose one of your watched apps',
  'About the',
];

/** Fails naming each screen-only text found in `pdf` (squashed text). */
function expectPrintOnly(pdf: string, more: readonly string[] = []): void {
  expect([...SCREEN_ONLY, ...more].filter((t) => pdf.includes(t))).toEqual([]);
}

/**
 * The controls a page shows on paper (print media): buttons, fields, dropdowns, switches,
 * sliders (the chart's zoom among them) and the skip link, each as 'tag "text"'.
 */
async function printedControls(page: Page): Promise<{ controls: string[] }> {
  await page.emulateMedia({ media: 'print' });
  try {
    return await page.evaluate<{ controls: string[] }>(`(() => {
      const selector = 'button, select, input, textarea, [role=switch], [role=slider], [role=combobox], [role=checkbox], a[href^="#"]';
      const controls = [...document.querySelectorAll(selector)]
        .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
        .map((el) => el.tagName.toLowerCase() + ' "' + (el.textContent || el.getAttribute('aria-label') || '').trim() + '"');
      return { controls };
    })()`);
  } finally {
    await page.emulateMedia({ media: null });
  }
}

const CALM = {
  conversion: 'constructed_conversion_calm-notes_united-kingdom_2025-07-20_2025-08-18.csv',
  redownloads: 'constructed_redownloads_calm-notes_united-kingdom_2025-07-20_2025-08-18.csv',
};

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function token(page: Page): Promise<string> {
  const value = await page.evaluate(() => localStorage.getItem('sessionToken'));
  if (!value) throw new Error('no session token in the page');
  return value;
}

async function api(page: Page, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${await token(page)}`, ...init.headers },
    signal: AbortSignal.timeout(120_000),
  });
}

/** Starts an audit through the API and waits until it is done. */
async function finishedAudit(page: Page): Promise<TAudit> {
  const res = await api(page, '/api/analyze', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      appStoreUrl: SPOTIFY_URL,
      keywords: 'music,podcast',
      competitorUrl1: INSTAGRAM_URL,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { id } = ZAnalyzeAnswer.parse(await res.json());
  return vi.waitUntil(
    async () => {
      const audit = ZAudit.parse(await (await api(page, `/api/audit/${id}`)).json());
      if (audit.status === 'failed') throw new Error(`audit failed: ${audit.error}`);
      return audit.status === 'done' ? audit : false;
    },
    { timeout: 110_000, interval: 500 },
  );
}

/** Clicks 'Download PDF' inside `scope` and returns the downloaded file's bytes and name. */
async function downloadPdf(page: Page, scope: ReturnType<Page['locator']>) {
  const download = page.waitForEvent('download', { timeout: 120_000 });
  await scope.getByTestId('download-pdf').first().click();
  const file = await download;
  const bytes = readFileSync(await file.path());
  // Kept beside the screenshots, to look at.
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  writeFileSync(join(ARTIFACTS_DIR, file.suggestedFilename()), bytes);
  return { bytes, name: file.suggestedFilename() };
}

/** Texts of the elements matching `selector`, squashed, non-empty. */
async function texts(page: Page, selector: string): Promise<string[]> {
  const all = await page.locator(selector).allInnerTexts();
  return all.map(squash).filter((t) => t.length > 0);
}

describe.each(SIZES)('share and export at $name size', ({ name, viewport }) => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let audit: TAudit;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newAppPage(browser, baseUrl, viewport));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => undefined);
    await signUpThroughUi(page, await generateAccessCode(baseUrl, adminCode), `share-${name}`);
    audit = await finishedAudit(page);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  screenshotOnFailure(afterEach, () => page);

  it('links the result view to its own page /results/{id}', async () => {
    // Open the audit in the main view through a saved audit, as a user would.
    const save = await api(page, '/api/saved-audits', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auditId: audit.id, name: '', storefront: 'us' }),
    });
    expect(save.status).toBe(200);
    await page.reload();
    if (viewport.width < 768) await page.getByTestId('sidebar-trigger').click();
    await page.getByTestId('saved-audit').first().click();
    await page.getByTestId('audit-result').getByTestId('app-name').waitFor();
    const link = page.getByTestId('result-page-link');
    expect(await link.getAttribute('href')).toBe(`/results/${audit.id}`);
    await saveScreenshot(page, `share-result-view-${name}`, { fullPage: false });
    await link.click();
    await page.waitForURL(`**/results/${audit.id}`);
    await page.getByTestId('back-home').waitFor();
    await page.getByTestId('app-name').waitFor();
  });

  it('tells a colleague at the private address to ask for a share link', async () => {
    const { page: other, context: otherContext } = await newAppPage(browser, baseUrl, viewport);
    try {
      await signUpThroughUi(other, await generateAccessCode(baseUrl, adminCode), `col-${name}`);
      await other.goto(`/results/${audit.id}`);
      await other.getByRole('heading', { name: 'PRIVATE AUDIT' }).waitFor();
      expect(await other.getByTestId('audit-not-yours').innerText()).toMatch(/share link/);
      expect(await other.getByText('does not exist').count()).toBe(0);
      await saveScreenshot(other, `share-private-${name}`, { fullPage: false });
    } finally {
      await otherContext.close();
    }
  });

  it('shares the audit through a link that opens without a session until revoked', async () => {
    await page.goto(`/results/${audit.id}`);
    await page.getByTestId('audit-result').getByTestId('section-title').first().waitFor();
    await page.getByTestId('share-audit').click();
    const dialog = page.getByTestId('share-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('share-links-empty').waitFor();
    await dialog.getByTestId('share-expiry').selectOption('7');
    await dialog.getByTestId('share-create').click();
    const url = await dialog.getByTestId('share-url').inputValue();
    expect(url).toMatch(new RegExp(`^${baseUrl}/s/[A-Za-z0-9_-]{43}$`));
    await dialog.getByTestId('share-link-row').waitFor();
    expect(await dialog.getByTestId('share-link-row').innerText()).toMatch(/expires/);
    await saveScreenshot(page, `share-dialog-${name}`, { fullPage: false });
    await page.keyboard.press('Escape');

    // A fresh browser, no session: the result and its PDF, nothing else, not indexed.
    const guest = await browser.newContext({ viewport });
    try {
      const view = await guest.newPage();
      const answer = await view.goto(url);
      expect(answer?.headers()['x-robots-tag']).toBe('noindex, nofollow');
      await view.getByTestId('shared-page').getByTestId('app-name').waitFor();
      expect(await view.getByTestId('app-name').innerText()).toBe(
        await page.getByTestId('app-name').innerText(),
      );
      expect(await view.locator('meta[name="robots"]').getAttribute('content')).toBe(
        'noindex, nofollow',
      );
      for (const control of ['save-audit', 'share-audit', 'feedback-box', 'back-home']) {
        expect(await view.getByTestId(control).count(), control).toBe(0);
      }
      expect(await view.getByText('Sign in', { exact: false }).count()).toBe(0);
      await saveScreenshot(view, `share-guest-${name}`, { fullPage: false });
      const download = view.waitForEvent('download', { timeout: 120_000 });
      await view.getByTestId('download-pdf').click();
      const file = await download;
      const bytes = readFileSync(await file.path());
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(squash((await pdfText(bytes)).text)).toContain(
        squash(await view.getByTestId('app-name').innerText()),
      );
      expect(await guest.cookies()).toEqual([]);

      // Revoked in the owner's dialog: the link is gone at once.
      await page.getByTestId('share-audit').click();
      await dialog.getByTestId('share-revoke').click();
      await dialog.getByTestId('share-links-empty').waitFor();
      await page.keyboard.press('Escape');
      await view.reload();
      await view.getByRole('heading', { name: 'LINK NOT AVAILABLE' }).waitFor();
      expect(await view.getByTestId('app-name').count()).toBe(0);
    } finally {
      await guest.close();
    }
  });

  it('downloads the audit as a PDF carrying the texts of the page', async () => {
    await page.goto(`/results/${audit.id}`);
    const result = page.getByTestId('audit-result');
    await result.getByTestId('section-title').waitFor();
    const { bytes, name: fileName } = await downloadPdf(page, result);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(fileName).toMatch(/^spotify-.*-report\.pdf$/);
    const { text, pages } = await pdfText(bytes);
    expect(pages).toBeGreaterThan(1);
    const pdf = squash(text);
    const expected = [
      ...(await texts(page, '[data-testid="app-name"]')),
      ...(await texts(page, '[data-testid="app-subtitle"]')),
      ...(await texts(page, '[data-testid="section-analysis"]')),
      ...(await texts(page, '[data-testid="competitor-row"] a')),
      // When each app's store data was read: the audited app and every competitor.
      ...(await texts(page, '[data-testid="competitor-store-date"]')),
      'Visual Assets',
      'Competitor Analysis',
      'Competitor Screenshots',
    ];
    expect(expected.length).toBeGreaterThan(8);
    for (const line of expected) expect(pdf, line).toContain(line);
    // Made for paper: no controls, every disclosure open, the description in full, and the
    // header of every page names the app and when the store data was read.
    expectPrintOnly(pdf);
    expect(pdf).toContain('How this is scored');
    const description = squash(
      await api(page, `/api/audit/${audit.id}`).then(
        async (r) => ZAudit.parse(await r.json()).description ?? '',
      ),
    );
    expect(pdf).toContain(description.slice(-60));
    // The store data date in the header of every page (offline replay: the recording dates).
    const when = storeDataWhen(audit.storeData!);
    expect(when).toMatch(/^recorded \d{4}-\d{2}.* \(offline replay\)$/);
    const header = squash(`${audit.appName} · US storefront · Store data ${when}`);
    expect(pdf.split(header).length - 1).toBe(pages);
    // And on the page, per app: the table's dates are those of each app's store data.
    const dates = await texts(page, '[data-testid="competitor-store-date"]');
    expect(dates).toEqual(
      [audit.storeData, ...audit.competitorData.map((c) => c.storeData)].map((d) =>
        storeDataWhen(d!),
      ),
    );
    expect(pdf).toMatch(new RegExp(`page 1 of ${pages}`));
    await saveScreenshot(page, `share-result-page-${name}`, { fullPage: false });
  });

  it('answers report.pdf as application/pdf, kept for its owner and rebuilt when the audit changes', async () => {
    const first = await api(page, `/api/audit/${audit.id}/report.pdf`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/pdf');
    expect(first.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    const bytes = Buffer.from(await first.arrayBuffer());
    // Kept: the same file again, at once.
    const again = Buffer.from(
      await (await api(page, `/api/audit/${audit.id}/report.pdf`)).arrayBuffer(),
    );
    expect(again.equals(bytes)).toBe(true);
    const before = await storedDocument(audit.id);
    // The audit changes (here: its completion time): the next request renders it again.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(
        "update audits set completed_at = completed_at - interval '1 day' where id = $1",
        [audit.id],
      );
    } finally {
      await client.end();
    }
    const rebuilt = await api(page, `/api/audit/${audit.id}/report.pdf`);
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.headers.get('content-type')).toBe('application/pdf');
    const after = await storedDocument(audit.id);
    expect(after.version).not.toBe(before.version);
    expect(after.rendered_at.getTime()).toBeGreaterThan(before.rendered_at.getTime());
    // Someone else's audit: not found, never the file.
    const { page: other, context: otherContext } = await newAppPage(browser, baseUrl, viewport);
    try {
      await signUpThroughUi(other, await generateAccessCode(baseUrl, adminCode), `other-${name}`);
      const foreign = await api(other, `/api/audit/${audit.id}/report.pdf`);
      expect(foreign.status).toBe(404);
      expect(foreign.headers.get('content-type')).toMatch(/json/);
    } finally {
      await otherContext.close();
    }
  });

  it('downloads a saved dashboard as a PDF with the KPI report, executive summary and monthly report', async () => {
    await page.goto('/');
    if (viewport.width < 768) await page.getByTestId('sidebar-trigger').click();
    await page.getByRole('button', { name: 'dashboard', exact: true }).click();
    const panel = page.getByTestId('upload-panel');
    await panel.waitFor();
    const widgets = panel.locator('input[type=file]');
    await widgets.nth(0).setInputFiles(join(CSV_DIR, CALM.conversion));
    await widgets.nth(1).setInputFiles(join(CSV_DIR, CALM.redownloads));
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/uploads'));
    await page.getByRole('button', { name: 'upload CSV files' }).click();
    ZUploadResult.parse(await (await uploaded).json());
    await page.getByTestId('kpi-report').waitFor();
    await page.getByRole('button', { name: 'save dashboard' }).click();
    await page.getByText('Dashboard Saved', { exact: true }).waitFor();
    const content = page.getByTestId('dashboard-content');
    const { bytes } = await downloadPdf(page, content);
    const pdf = squash((await pdfText(bytes)).text);
    for (const heading of [
      'KPI report',
      'Executive Summary',
      'Monthly Report',
      'Performance Overview',
    ]) {
      expect(pdf, heading).toContain(heading);
    }
    const page_texts = [
      ...(await texts(page, '[data-testid="performance-overview"]')),
      ...(await texts(page, '[data-testid="ranking-sentence"]')),
      ...(await texts(page, '[data-testid="executive-summary"] p')),
      ...(await texts(page, '[data-testid="dataset-title"]')),
    ];
    expect(page_texts.length).toBeGreaterThan(3);
    for (const line of page_texts) expect(pdf, line).toContain(line);
    expectPrintOnly(pdf, DASHBOARD_SCREEN_ONLY);
    expect(pdf).toContain('Analytics dashboard report');
    // The controls those texts belong to are on the screen, and none is on the print page.
    expect(await page.getByTestId('metric-selector-trigger').count()).toBe(1);
    for (const control of ['save dashboard', 'export CSV', 'download processed CSV'])
      expect(await page.getByRole('button', { name: control }).count(), control).toBe(1);
    const dashboards = ZDashboard.array().parse(await (await api(page, '/api/dashboards')).json());
    const print = await page.context().newPage();
    try {
      await print.goto(`/print/dashboard/${dashboards[0]!.id}`);
      await print.locator('[data-print-state="ready"]').waitFor({ timeout: 60_000 });
      expect(await printedControls(print)).toEqual({ controls: [] });
    } finally {
      await print.close();
    }
    await saveScreenshot(page, `share-dashboard-${name}`, { fullPage: false });
  });
});
