/**
 * Browser tests of the analytics dashboard (docs/product.md#dashboard-sections): upload both sample
 * exports, the line chart is drawn with the selected metrics in its legend, metrics change through
 * search and select-all, a range picked and applied changes the KPI figures to exactly what `GET
 * /api/reports` answers for that range, the four source charts (their legends hiding series) and
 * the monthly report render, a range over 31 days gets the zoom slider choosing the days shown,
 * 'export CSV' holds the applied range's rows, the dashboard is saved, reopened from the sidebar
 * after a reload, shows 'dashboard data expired' once its dataset expired, and is deleted through
 * the confirmation; 'try it with sample exports' sends the project's constructed samples through
 * the same upload. Screenshots go to `artifacts/e2e/`.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ZKpiReport, ZUploadResult, type TKpiReport, type TMergedData } from '@aso/contracts';
import { launchBrowser, newAppPage, saveScreenshot } from './support/browser';
import { generateAccessCode, signUpThroughUi } from './support/session';
import { WEB_DIR } from './support/paths';
import { CONVERSION, REDOWNLOADS } from './support/samples';
import './support/provided';
import { applyJuneToAugust2025 } from './support/date-range';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');
const databaseUrl = inject('databaseUrl');

/**
 * docs/product.md#validation-rules, written out independently of the app: Bytes, else KB/MB with
 * two decimals.
 */
function expectedSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} Bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(2)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/**
 * Counts rounded and grouped, percentages with one decimal (docs/product.md#limits-and-constants),
 * independently.
 */
const count = (n: number) => Math.round(n).toLocaleString('en-US');
const percent = (n: number) =>
  `${Number(n.toFixed(1)).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function day(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

async function token(page: Page): Promise<string> {
  const value = await page.evaluate(() => localStorage.getItem('sessionToken'));
  if (!value) throw new Error('no session token in the page');
  return value;
}

async function fetchReport(
  page: Page,
  downloadId: string,
  range?: { start: string; end: string },
): Promise<TKpiReport> {
  const query = range ? `?start=${range.start}&end=${range.end}` : '';
  const res = await fetch(`${baseUrl}/api/reports/${downloadId}${query}`, {
    headers: { authorization: `Bearer ${await token(page)}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`reports answered ${res.status}: ${await res.text()}`);
  return ZKpiReport.parse(await res.json());
}

async function text(page: Page, testId: string): Promise<string> {
  return ((await page.getByTestId(testId).first().textContent()) ?? '').trim();
}

/** The figures the KPI section shows, to compare with a report. */
async function shownFigures(page: Page) {
  const sources = ['search', 'browse', 'app_referrer', 'web_referrer'] as const;
  return {
    totalDownloads: await text(page, 'kpi-total-downloads-value'),
    impressions: await text(page, 'kpi-total-impressions-value'),
    conversionRate: await text(page, 'kpi-conversion-rate-value'),
    downloadsFlag: await page.getByTestId('kpi-total-downloads-flag').getAttribute('data-flag'),
    ftd: await Promise.all(sources.map((s) => text(page, `ftd-${s}-value`))),
    impressionsBySource: await Promise.all(
      sources.map((s) => text(page, `impressions-${s}-value`)),
    ),
    conversionBySource: await Promise.all(sources.map((s) => text(page, `conversion-${s}-value`))),
    ranking: await text(page, 'ranking-sentence'),
    overview: await text(page, 'performance-overview'),
  };
}

function expectedFigures(report: TKpiReport) {
  const dash = (has: boolean, value: string) => (has ? value : '—');
  return {
    totalDownloads: count(report.totals.current.totalDownloads),
    impressions: count(report.totals.current.impressions),
    conversionRate: percent(report.totals.current.conversionRate),
    downloadsFlag:
      report.totals.coverage.comparedDays > 0 ? report.totals.flags.totalDownloads : 'none',
    ftd: report.sources.map((s) => dash(s.hasData, count(s.current.firstTimeDownloads))),
    impressionsBySource: report.sources.map((s) => dash(s.hasData, count(s.current.impressions))),
    conversionBySource: report.sources.map((s) =>
      dash(s.hasData, percent(s.current.conversionRate)),
    ),
    ranking: report.rankingSentence,
    overview: report.performanceOverview,
  };
}

/** Pixels drawn (not fully transparent) on the first canvas inside `selector`. */
async function drawnPixels(page: Page, selector: string): Promise<number> {
  // Structural type: the root tsconfig has no DOM lib; this runs in the page.
  type TCanvas = {
    width: number;
    height: number;
    getContext(kind: '2d'): {
      getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
    } | null;
  };
  return page
    .locator(`${selector} canvas`)
    .first()
    .evaluate((canvas: TCanvas) => {
      const ctx = canvas.getContext('2d');
      if (!ctx) return 0;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let drawn = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) drawn++;
      return drawn;
    });
}

async function legend(page: Page): Promise<string[]> {
  return (await page.getByTestId('chart-legend').locator('li').allTextContents()).map((t) =>
    t.trim(),
  );
}

describe('analytics dashboard', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let merged: TMergedData;
  let dashboardName: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newAppPage(browser, baseUrl));
    await signUpThroughUi(page, await generateAccessCode(baseUrl, adminCode), 'dashboard');
    await page.getByRole('button', { name: 'dashboard', exact: true }).click();
    await page.getByTestId('upload-panel').waitFor();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('shows the empty chart state and refuses a non-CSV and a too-large file', async () => {
    await page.getByText('Upload both CSV files to see the chart').waitFor();
    expect(
      await page.getByText('Once processed, you can visualize any metrics from your data').count(),
    ).toBe(1);
    const conversion = page.getByTestId('upload-conversionCSV');

    await conversion.locator('input[type=file]').setInputFiles({
      name: 'export.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Date,x\n'),
    });
    await conversion
      .getByRole('alert')
      .filter({ hasText: 'Only CSV files are accepted' })
      .waitFor();
    expect(await conversion.getByTestId('file-name').count()).toBe(0);

    // One byte over 20 MB, from disk: a buffer that large is slow to send over the devtools protocol.
    const bigFile = join(mkdtempSync(join(tmpdir(), 'e2e-dashboard-')), 'big.csv');
    writeFileSync(bigFile, Buffer.alloc(20 * 1024 * 1024 + 1, 0x31));
    await conversion.locator('input[type=file]').setInputFiles(bigFile);
    await conversion
      .getByRole('alert')
      .filter({ hasText: 'File size must be less than 20MB' })
      .waitFor();
    expect(await conversion.getByTestId('file-name').count()).toBe(0);
    // The rejected selection is cleared from the input too.
    expect(
      await conversion
        .locator('input[type=file]')
        .evaluate((el: { files: { length: number } | null }) => el.files?.length ?? 0),
    ).toBe(0);
  });

  it('shows the chosen files with name and size, and the help dialog with its steps', async () => {
    for (const [slot, file] of [
      ['conversionCSV', CONVERSION],
      ['redownloadsCSV', REDOWNLOADS],
    ] as const) {
      const widget = page.getByTestId(`upload-${slot}`);
      await widget.locator('input[type=file]').setInputFiles(file);
      expect(await widget.getByTestId('file-name').textContent()).toBe(file.split('/').at(-1));
      expect(await widget.getByTestId('file-size').textContent()).toBe(
        expectedSize(statSync(file).size),
      );
      expect(await widget.getByRole('alert').count()).toBe(0);
    }

    await page.getByRole('button', { name: 'How to export the redownloads data file' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('How to export a CSV file from App Store Connect').waitFor();
    expect(
      await dialog
        .getByText('Choose Redownloads on the left, with comparison set to None.')
        .count(),
    ).toBe(1);
    expect(await dialog.getByText('Use the three-dot menu and choose Export as CSV.').count()).toBe(
      1,
    );
    const image = dialog.locator('img');
    await expect
      .poll(() =>
        image.evaluate((img: { complete: boolean; naturalWidth: number }) =>
          img.complete ? img.naturalWidth : 0,
        ),
      )
      .toBeGreaterThan(0);
    await saveScreenshot(page, 'dashboard-help-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('uploads both exports, hides the upload panel and draws the line chart with Total Downloads', async () => {
    const answer = page.waitForResponse(
      (res) => res.url().endsWith('/api/uploads') && res.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'upload CSV files' }).click();
    const res = await answer;
    expect(res.status()).toBe(200);
    merged = ZUploadResult.parse(await res.json()).mergedData;
    expect(merged.appName).toBe('Habit Tracker Pro');
    expect(merged.territory).toBe('United States');

    await page.getByText('Files Merged Successfully', { exact: true }).waitFor();
    expect(
      await page.getByText(`Total rows: ${count(merged.totalRows)}`, { exact: true }).count(),
    ).toBe(1);
    await page.getByTestId('upload-panel').waitFor({ state: 'detached' });

    await page.getByTestId('chart-legend').waitFor();
    expect(await legend(page)).toEqual(['Total Downloads']);
    await expect
      .poll(() => drawnPixels(page, '[data-testid="analytics-chart-card"]'))
      .toBeGreaterThan(1000);
    const box = await page
      .locator('[data-testid="analytics-chart-card"] canvas')
      .first()
      .boundingBox();
    expect(box!.height).toBe(26 * 16); // 26rem
    expect(await text(page, 'dataset-title')).toBe('Habit Tracker Pro');
    await saveScreenshot(page, 'dashboard-uploaded');
  });

  it('changes metrics through search, select all and clear all', async () => {
    const metrics = merged.headers.filter((h) => !/date|territory/i.test(h));
    const impressions = metrics.filter((m) => m.toLowerCase().includes('impressions'));
    expect(impressions.length).toBeGreaterThan(3);

    await page.getByTestId('metric-selector-trigger').click();
    const selector = page.getByTestId('metric-selector');
    await selector.getByText('select metrics to display:').waitFor();
    await selector.getByPlaceholder('search metrics...').fill('impressions');
    expect(await selector.getByRole('checkbox').count()).toBe(impressions.length);
    await selector.getByRole('button', { name: `select all (${impressions.length})` }).click();
    await page.keyboard.press('Escape');
    await selector.waitFor({ state: 'detached' });
    const shown = await legend(page);
    expect(new Set(shown)).toEqual(new Set(['Total Downloads', ...impressions]));
    await expect
      .poll(() => drawnPixels(page, '[data-testid="analytics-chart-card"]'))
      .toBeGreaterThan(1000);
    await saveScreenshot(page, 'dashboard-metrics');

    await page.getByTestId('metric-selector-trigger').click();
    await selector.getByPlaceholder('search metrics...').fill('no such metric at all');
    await selector.getByText('no metrics found').waitFor();
    await selector.getByRole('button', { name: 'clear all' }).click();
    // A click outside closes the selector too.
    await page.getByRole('heading', { name: 'Analytics dashboard' }).click();
    await selector.waitFor({ state: 'detached' });
    await page.getByText('Select at least one metric to display the chart').waitFor();

    await page.getByTestId('metric-selector-trigger').click();
    await selector.getByPlaceholder('search metrics...').fill('total downloads');
    await selector.getByRole('checkbox', { name: 'Total Downloads', exact: true }).click();
    await page.keyboard.press('Escape');
    expect(await legend(page)).toEqual(['Total Downloads']);
  });

  it('starts on the last 30 days with KPI figures equal to the reports call', async () => {
    const report = await fetchReport(page, merged.downloadId);
    expect(report.range).toMatchObject({ start: '2025-08-02', end: '2025-08-31', days: 30 });
    expect(await text(page, 'applied-range')).toBe(
      `Applied: ${day('2025-08-02')} - ${day('2025-08-31')}`,
    );
    expect(await shownFigures(page)).toEqual(expectedFigures(report));
  });

  it('applies a picked range: Apply waits for both ends, Escape discards, the KPI figures follow', async () => {
    const before = await shownFigures(page);
    await page.getByTestId('date-range-trigger').click();
    const popover = page.getByTestId('date-range-popover');
    // Bounds are the dataset's span: August 2025 is the last month.
    expect(
      await popover.getByRole('button', { name: /next month/i }).getAttribute('aria-disabled'),
    ).toBe('true');
    const apply = popover.getByRole('button', { name: 'Apply' });
    expect(await apply.isDisabled()).toBe(true);
    await popover
      .getByRole('grid', { name: /July/ })
      .getByRole('button', { name: /^1 July 2025,/ })
      .click();
    expect(await apply.isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });
    expect(await text(page, 'applied-range')).toBe(
      `Applied: ${day('2025-08-02')} - ${day('2025-08-31')}`,
    );

    await page.getByTestId('date-range-trigger').click();
    expect(await apply.isDisabled()).toBe(true);
    const july = popover.getByRole('grid', { name: /July/ });
    await july.getByRole('button', { name: /^1 July 2025,/ }).click();
    await july.getByRole('button', { name: /^31 July 2025,/ }).click();
    expect(await apply.isDisabled()).toBe(false);
    await saveScreenshot(page, 'dashboard-date-picker');
    await apply.click();
    await popover.waitFor({ state: 'detached' });
    expect(await text(page, 'applied-range')).toBe(
      `Applied: ${day('2025-07-01')} - ${day('2025-07-31')}`,
    );

    const report = await fetchReport(page, merged.downloadId, {
      start: '2025-07-01',
      end: '2025-07-31',
    });
    expect(report.range.days).toBe(31);
    const after = await shownFigures(page);
    expect(after).toEqual(expectedFigures(report));
    expect(after.totalDownloads).not.toBe(before.totalDownloads);
    expect(after.impressions).not.toBe(before.impressions);
    expect(await text(page, 'executive-summary')).toContain(report.executiveSummary.lines[0]!);
    for (const s of report.sources) {
      const lines = (
        await page.getByTestId(`commentary-${s.id}`).locator('li').allTextContents()
      ).map((t) => t.trim());
      expect(lines).toEqual(s.commentary);
      expect(lines.length).toBeLessThanOrEqual(3);
    }
  });

  it('renders the four source charts and the monthly report of the applied range', async () => {
    const report = await fetchReport(page, merged.downloadId, {
      start: '2025-07-01',
      end: '2025-07-31',
    });
    await page.getByRole('heading', { name: 'Traffic source performance' }).waitFor();
    for (const id of ['search', 'browse', 'app_referrer', 'web_referrer']) {
      const card = `[data-testid="source-chart-${id}"]`;
      const canvas = page.locator(`${card} canvas`).first();
      await canvas.waitFor();
      expect((await canvas.boundingBox())!.height).toBe(16 * 16); // 16rem
      await expect.poll(() => drawnPixels(page, card)).toBeGreaterThan(500);
    }
    // Each chart's HTML legend names its series and hides or shows one with its button.
    const search = page.getByTestId('source-chart-search');
    const searchLegend = search.getByRole('list', { name: 'Search chart legend' });
    expect((await searchLegend.locator('li').allTextContents()).map((t) => t.trim())).toEqual([
      'First-Time Downloads',
      'Impressions',
      'First-time conversion rate (%)',
    ]);
    const searchCard = '[data-testid="source-chart-search"]';
    const allDrawn = await drawnPixels(page, searchCard);
    const impressionsToggle = searchLegend.getByRole('button', { name: 'Impressions' });
    expect(await impressionsToggle.getAttribute('aria-pressed')).toBe('true');
    await impressionsToggle.click();
    expect(await impressionsToggle.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => drawnPixels(page, searchCard)).toBeLessThan(allDrawn * 0.9);
    const hiddenDrawn = await drawnPixels(page, searchCard);
    await impressionsToggle.press('Enter');
    expect(await impressionsToggle.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => drawnPixels(page, searchCard)).toBeGreaterThan(hiddenDrawn * 1.1);
    const monthly = page.getByTestId('monthly-report');
    await monthly.scrollIntoViewIfNeeded();
    expect(
      await monthly.getByTestId('monthly-row-2025-07').locator('td').first().textContent(),
    ).toBe('Jul 2025');
    expect(await monthly.getByTestId('monthly-total-downloads').textContent()).toBe(
      count(report.monthlyReport.totals.totalDownloads),
    );
    // One rate: the table's rate is the ratio of the two totals it shows, and the KPI card's.
    const shownNumber = async (id: string) =>
      Number(((await monthly.getByTestId(id).textContent()) ?? '').replace(/[^\d.]/g, ''));
    const ftd = await shownNumber('monthly-total-first-time-downloads');
    const impressions = await shownNumber('monthly-total-impressions');
    expect(ftd).toBe(report.monthlyReport.totals.firstTimeDownloads);
    expect(impressions).toBe(report.monthlyReport.totals.impressions);
    const rate = await text(page, 'monthly-total-conversion-rate');
    expect(rate).toBe(percent((ftd * 100) / impressions));
    expect(rate).toBe(await text(page, 'kpi-conversion-rate-value'));
    const composition = page.getByTestId('download-composition');
    await composition.getByText('Download Composition').waitFor();
    const labelled = report.monthlyReport.composition!.segments.filter((s) => s.share > 15);
    expect(await composition.getByTestId('composition-label').count()).toBe(labelled.length);
    await saveScreenshot(page, 'dashboard-reports');
  });

  it("exports the applied range's rows as CSV and downloads the processed file", async () => {
    const exported = page.waitForEvent('download');
    await page.getByRole('button', { name: 'export CSV' }).click();
    const file = await exported;
    expect(file.suggestedFilename()).toBe(
      'habit-tracker-pro-united-states-2025-07-01_2025-07-31.csv',
    );
    const lines = readFileSync(await file.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(lines).toHaveLength(1 + 31);
    expect(lines[0]!.startsWith('Date,')).toBe(true);
    expect(lines[1]!.startsWith('7/1/25,')).toBe(true);
    expect(lines.at(-1)!.startsWith('7/31/25,')).toBe(true);

    const processed = page.waitForEvent('download');
    await page.getByRole('button', { name: 'download processed CSV' }).click();
    const merged92 = await processed;
    expect(merged92.suggestedFilename()).toMatch(/\.csv$/);
    const body = readFileSync(await merged92.path(), 'utf8')
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r?\n/);
    expect(body[0]).toContain('Date');
    expect(body).toHaveLength(1 + merged.totalRows);
  });

  it('saves the dashboard, and after a reload opens it from the sidebar with its range and metrics', async () => {
    const appliedWhenSaved = await text(page, 'applied-range');
    const metricsWhenSaved = await legend(page);
    await page.getByRole('button', { name: 'save dashboard' }).click();
    await page.getByText('Dashboard Saved', { exact: true }).waitFor();
    const list = page.getByTestId('saved-dashboards');
    const entry = list.getByTestId('saved-dashboard').first();
    await entry.waitFor();
    dashboardName = ((await entry.textContent()) ?? '').trim();
    expect(dashboardName).toContain('Habit Tracker Pro');

    await page.reload();
    await page.getByTestId('saved-dashboards').getByText(dashboardName).click();
    await page.getByTestId('chart-legend').waitFor();
    expect(await text(page, 'dataset-title')).toBe('Habit Tracker Pro');
    await expect
      .poll(() => drawnPixels(page, '[data-testid="analytics-chart-card"]'))
      .toBeGreaterThan(1000);
    // Opened with the view it was saved with: its date range and selected metrics.
    expect(await text(page, 'applied-range')).toBe(appliedWhenSaved);
    expect(await legend(page)).toEqual(metricsWhenSaved);
    // The open dashboard is marked in the sidebar.
    expect(
      await page
        .getByTestId('saved-dashboards')
        .getByTestId('saved-dashboard')
        .first()
        .getAttribute('data-active'),
    ).toBe('true');
    await saveScreenshot(page, 'dashboard-reopened');

    await page.getByRole('button', { name: 'generate new dashboard' }).click();
    await page.getByTestId('upload-panel').waitFor();
    await page.getByRole('button', { name: 'back to dashboard' }).click();
    await page.getByTestId('upload-panel').waitFor({ state: 'detached' });
  });

  it('zooms the line chart of a range over 31 days with a slider naming the days shown', async () => {
    const chart = '[data-testid="analytics-chart-card"]';
    // 30 or 31 days: no zoom control.
    expect(await page.getByTestId('chart-zoom').count()).toBe(0);
    await page.getByTestId('date-range-trigger').click();
    await applyJuneToAugust2025(page);
    expect(await text(page, 'applied-range')).toBe(
      `Applied: ${day('2025-06-01')} - ${day('2025-08-31')}`,
    );

    const zoom = page.getByTestId('chart-zoom');
    await zoom.waitFor();
    expect(await zoom.innerText()).toContain(
      `Days shown: ${day('2025-06-01')} to ${day('2025-08-31')} (92 of 92 days)`,
    );
    const first = zoom.getByRole('slider', { name: 'First day shown' });
    const last = zoom.getByRole('slider', { name: 'Last day shown' });
    expect(await first.getAttribute('aria-valuetext')).toBe(day('2025-06-01'));
    expect(await last.getAttribute('aria-valuetext')).toBe(day('2025-08-31'));
    await expect.poll(() => drawnPixels(page, chart)).toBeGreaterThan(1000);
    const wholeRange = await drawnPixels(page, chart);

    // By keyboard: the first thumb 30 days on (July 1), the last 31 days back (July 31).
    await first.focus();
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowRight');
    await last.focus();
    for (let i = 0; i < 31; i++) await page.keyboard.press('ArrowLeft');
    expect(await first.getAttribute('aria-valuetext')).toBe(day('2025-07-01'));
    expect(await last.getAttribute('aria-valuetext')).toBe(day('2025-07-31'));
    expect(await zoom.innerText()).toContain(
      `Days shown: ${day('2025-07-01')} to ${day('2025-07-31')} (31 of 92 days)`,
    );
    // The chart draws those days only (a month's points are marked, so it is drawn otherwise);
    // the applied range, and so the KPI figures, stay the whole range.
    await expect.poll(async () => (await drawnPixels(page, chart)) !== wholeRange).toBe(true);
    expect(await text(page, 'applied-range')).toBe(
      `Applied: ${day('2025-06-01')} - ${day('2025-08-31')}`,
    );
    await saveScreenshot(page, 'dashboard-zoomed');
  });

  it("shows 'dashboard data expired' once the dataset has expired", async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const result = await client.query(
        "update datasets set expires_at = now() - interval '1 minute' where id = $1",
        [merged.downloadId],
      );
      expect(result.rowCount).toBe(1);
    } finally {
      await client.end();
    }
    await page.reload();
    await page.getByTestId('saved-dashboards').getByText(dashboardName).click();
    await page.getByText('dashboard data expired').waitFor();
    expect(
      await page
        .getByText(
          "this saved dashboard's data is no longer available. please upload your CSV files again to create a new dashboard.",
        )
        .count(),
    ).toBe(1);
    await saveScreenshot(page, 'dashboard-expired');
  });

  it('deletes the saved dashboard through the confirmation', async () => {
    const list = page.getByTestId('saved-dashboards');
    await list.getByRole('button', { name: `Delete ${dashboardName}` }).click({ force: true });
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await list.getByText(dashboardName).waitFor({ state: 'detached' });
    const res = await fetch(`${baseUrl}/api/dashboards`, {
      headers: { authorization: `Bearer ${await token(page)}` },
    });
    expect(((await res.json()) as { name: string }[]).map((d) => d.name)).not.toContain(
      dashboardName,
    );
  });
});

/** The constructed sample exports the web app ships (apps/web/public/samples). */
const SAMPLE_FILES = {
  conversion: 'constructed_conversion_sample-app_united-states_2025-06-01_2025-08-31.csv',
  redownloads: 'constructed_redownloads_sample-app_united-states_2025-06-01_2025-08-31.csv',
};

describe('sample exports', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const)(
    'builds a dashboard from the constructed sample exports through the upload (%s)',
    async (size, viewport) => {
      const { context, page } = await newAppPage(browser, baseUrl, viewport);
      try {
        const { email } = await signUpThroughUi(
          page,
          await generateAccessCode(baseUrl, adminCode),
          `sample-${size}`,
        );
        if (viewport.width < 768) await page.getByTestId('sidebar-trigger').click();
        await page.getByRole('button', { name: 'dashboard', exact: true }).click();
        const offer = page.getByTestId('sample-exports');
        await offer.waitFor();
        // Labelled as what they are.
        expect(await offer.innerText()).toMatch(/Constructed data of an invented app/);
        await saveScreenshot(page, `dashboard-sample-offer-${size}`, { fullPage: false });

        // The ordinary upload: both files to POST /api/uploads, stored as the user's uploads
        // byte for byte as the web app ships them.
        const answer = page.waitForResponse((r) => r.url().endsWith('/api/uploads'));
        await offer.getByRole('button', { name: 'try it with sample exports' }).click();
        const { mergedData } = ZUploadResult.parse(await (await answer).json());
        expect(mergedData).toMatchObject({
          appName: 'Sample App (constructed data)',
          territory: 'United States',
          totalRows: 92,
        });
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          const { rows } = await client.query<{ field: string; filename: string; content: Buffer }>(
            `select u.field, u.filename, u.content from uploads u join users s on s.id = u.user_id
             where s.email = $1 order by u.field`,
            [email],
          );
          expect(rows.map((r) => [r.field, r.filename])).toEqual([
            ['conversionCSV', SAMPLE_FILES.conversion],
            ['redownloadsCSV', SAMPLE_FILES.redownloads],
          ]);
          for (const [i, file] of [SAMPLE_FILES.conversion, SAMPLE_FILES.redownloads].entries())
            expect(
              rows[i]!.content.equals(readFileSync(join(WEB_DIR, 'public', 'samples', file))),
            ).toBe(true);
        } finally {
          await client.end();
        }
        await page.getByText('Files Merged Successfully', { exact: true }).waitFor();
        expect(await page.getByTestId('dataset-title').innerText()).toContain(
          'Sample App (constructed data)',
        );
        await page.getByTestId('kpi-report').waitFor();
        await page.getByTestId('chart-legend').waitFor();
        await saveScreenshot(page, `dashboard-sample-${size}`, { fullPage: false });
      } finally {
        await context.close();
      }
    },
  );
});
