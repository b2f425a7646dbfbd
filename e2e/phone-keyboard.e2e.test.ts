/**
 * Browser tests of phones and keyboards, at 1440x900 and 390x844: shortcuts stay out of text
 * fields, the metric search does not take focus on a phone, the date picker's Apply and Cancel
 * are on screen, wide tables say they scroll, and a new view opens at its top.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_FIXTURES_DIR } from '@aso/appstore/node';
import { launchBrowser, newAppPage, saveScreenshot, screenshotOnFailure } from './support/browser';
import { generateAccessCode, signUpThroughUi } from './support/session';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');
const ASC = join(process.env.FIXTURES_DIR ?? DEFAULT_FIXTURES_DIR, 'asc-analytics');

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const;

describe.each(SIZES)('phones and keyboards at $name size', ({ name, viewport, phone }) => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newAppPage(browser, baseUrl, viewport));
    await signUpThroughUi(page, await generateAccessCode(baseUrl, adminCode), `keys-${name}`);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  screenshotOnFailure(afterEach, () => page);

  it('keeps Ctrl+B for the text field being typed in', async () => {
    // Desktop: the sidebar's expanded / collapsed state; phone: whether its sheet is open.
    const state = async () =>
      phone
        ? String(await page.getByRole('dialog').count())
        : await page.locator('[data-slot="sidebar"]').first().getAttribute('data-state');
    const before = await state();
    await page.locator('#keywords').click();
    await page.keyboard.type('music');
    await page.keyboard.press('Control+b');
    expect(await state()).toBe(before);
    expect(await page.locator('#keywords').inputValue()).toBe('music');
    if (!phone) {
      // Outside a field the shortcut still toggles the sidebar.
      await page.locator('body').click({ position: { x: 700, y: 10 } });
      await page.keyboard.press('Control+b');
      await expect.poll(state).not.toBe(before);
      await page.keyboard.press('Control+b');
      await expect.poll(state).toBe(before);
    }
  });

  it('fits the dashboard on the screen: no field focused by itself, the date picker’s actions visible, tables that say they scroll', async () => {
    if (phone) await page.getByTestId('sidebar-trigger').click();
    await page.getByRole('button', { name: 'dashboard', exact: true }).click();
    const panel = page.getByTestId('upload-panel');
    await panel.waitFor();
    const inputs = panel.locator('input[type=file]');
    await inputs
      .nth(0)
      .setInputFiles(
        join(
          ASC,
          'constructed_conversion_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
        ),
      );
    await inputs
      .nth(1)
      .setInputFiles(
        join(
          ASC,
          'constructed_redownloads_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
        ),
      );
    await page.getByRole('button', { name: 'upload CSV files' }).click();
    await page.getByTestId('kpi-report').waitFor();
    // The upload's toast first: Escape closes the topmost layer, and a toast that appears (its
    // toaster loads on demand) after the metric selector opened would take the Escape below.
    await page.getByText('Files Merged Successfully', { exact: true }).waitFor();
    // The dashboard opens at its top.
    // A string expression: the e2e tsconfig has no DOM types.
    expect(await page.evaluate('window.scrollY')).toBe(0);

    // The metric selector's search does not take focus (and open the keyboard) on a phone.
    await page.getByTestId('analytics-chart-card').getByRole('button').first().click();
    const search = page.getByPlaceholder('search metrics...');
    await search.waitFor();
    const focused = await page.evaluate(
      "document.activeElement?.getAttribute('placeholder') === 'search metrics...'",
    );
    expect(focused).toBe(!phone);
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'detached' });

    // The date picker fits: Apply and Cancel inside the viewport.
    await page.getByTestId('date-range-bar').getByRole('button').first().click();
    const popover = page.getByTestId('date-range-popover');
    await popover.waitFor();
    for (const label of ['Apply', 'Cancel']) {
      const box = await popover.getByRole('button', { name: label, exact: true }).boundingBox();
      expect(box, label).not.toBeNull();
      expect(box!.y + box!.height, label).toBeLessThanOrEqual(viewport.height);
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(viewport.width);
    }
    await saveScreenshot(page, `phone-keyboard-date-picker-${name}`, { fullPage: false });
    await popover.getByRole('button', { name: 'Cancel', exact: true }).click();

    // The monthly report says it scrolls sideways where it does not fit.
    const hint = page.getByTestId('monthly-report').getByTestId('scroll-hint');
    expect(await hint.isVisible()).toBe(phone);
    await page.getByTestId('monthly-report').scrollIntoViewIfNeeded();
    await saveScreenshot(page, `phone-keyboard-monthly-${name}`, { fullPage: false });
  });
});
