/**
 * Browser tests of the shell (docs/product.md#sidebar): Ctrl+B collapses the sidebar to icons and
 * the state survives a reload (cookie `sidebar_state`, 7 days); at 375 px the sidebar is a sheet.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newAppPage, saveScreenshot } from './support/browser';
import { generateAccessCode, signUpThroughUi } from './support/session';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');

describe('shell', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('collapses the sidebar with Ctrl+B and keeps it collapsed after a reload', async () => {
    const { context, page } = await newAppPage(browser, baseUrl);
    try {
      await signUpThroughUi(page, await generateAccessCode(baseUrl, adminCode), 'shell');
      const sidebar = page.locator('[data-slot="sidebar"]');
      expect(await sidebar.getAttribute('data-state')).toBe('expanded');
      const expandedWidth = (await page.locator('[data-slot="sidebar-container"]').boundingBox())!
        .width;
      expect(expandedWidth).toBe(256); // 16rem

      await page.keyboard.press('Control+b');
      await expect.poll(() => sidebar.getAttribute('data-state')).toBe('collapsed');
      await expect
        .poll(
          async () => (await page.locator('[data-slot="sidebar-container"]').boundingBox())!.width,
        )
        .toBe(48); // 3rem
      const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
      expect(cookie?.value).toBe('false');
      // 7 days, give or take the test's own running time.
      expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
      await saveScreenshot(page, 'shell-collapsed');

      await page.reload();
      await page.getByTestId('user-email').waitFor({ state: 'attached' });
      expect(await page.locator('[data-slot="sidebar"]').getAttribute('data-state')).toBe(
        'collapsed',
      );

      await page.keyboard.press('Control+b');
      await expect
        .poll(() => page.locator('[data-slot="sidebar"]').getAttribute('data-state'))
        .toBe('expanded');
    } finally {
      await context.close();
    }
  });

  it('shows the sidebar as an 18rem sheet at 375 px width', async () => {
    const { context, page } = await newAppPage(browser, baseUrl, { width: 375, height: 812 });
    try {
      await signUpThroughUi(page, await generateAccessCode(baseUrl, adminCode), 'mobile');
      // Closed at first: the user's email lives in the sheet.
      expect(await page.getByTestId('user-email').count()).toBe(0);
      await page.getByTestId('sidebar-trigger').click();
      const sheet = page.locator('[data-mobile="true"]');
      await sheet.waitFor();
      await expect.poll(async () => (await sheet.boundingBox())?.width).toBe(288); // 18rem
      await sheet.getByTestId('user-email').waitFor();
      await sheet.getByRole('button', { name: 'dashboard', exact: true }).waitFor();
      await saveScreenshot(page, 'shell-mobile-sheet');

      await sheet.getByRole('button', { name: 'app page audit' }).click();
      await sheet.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'start ASO analysis' }).waitFor();
      await saveScreenshot(page, 'shell-mobile-form');
    } finally {
      await context.close();
    }
  });
});
