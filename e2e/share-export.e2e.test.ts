/**
 * Browser tests of sharing and exporting, at 1440x900 and 390x844: the result view links to
 * its own page `/results/{id}`, and 'Download PDF' on the results page, the standalone page
 * and the dashboard gives a PDF rendered by the render worker whose text (read with pdf.js)
 * carries the page's texts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { ZAnalyzeAnswer, ZAudit, ZUploadResult, type TAudit } from '@aso/contracts';
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
      'Visual Assets',
      'Competitor Analysis',
      'Competitor Screenshots',
    ];
    expect(expected.length).toBeGreaterThan(8);
    for (const line of expected) expect(pdf, line).toContain(line);
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
    await saveScreenshot(page, `share-dashboard-${name}`, { fullPage: false });
  });
});
