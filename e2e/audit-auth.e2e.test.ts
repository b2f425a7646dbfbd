/**
 * Browser tests of access (spec section 2): login screen on every path while anonymous,
 * sign up with a generated code, the missing-fields toast, logout, the 404 page.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newAppPage, saveScreenshot } from './support/browser';
import { generateAccessCode, signUpThroughUi } from './support/session';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');

describe('access', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows only the login screen on any path while anonymous, and names missing fields', async () => {
    const { context, page } = await newAppPage(browser, baseUrl);
    try {
      for (const path of ['/', '/results/some-id', '/admin', '/no/such/page']) {
        await page.goto(path);
        await expect
          .poll(() => page.getByRole('button', { name: 'login', exact: true }).isVisible())
          .toBe(true);
        expect(await page.getByTestId('app-sidebar').count()).toBe(0);
      }
      await page.getByRole('button', { name: 'login', exact: true }).click();
      await page.getByText('Missing Information', { exact: true }).waitFor();
      await page.getByText('Please enter both email and access code.', { exact: true }).waitFor();
      await saveScreenshot(page, 'auth-login-missing-information');
    } finally {
      await context.close();
    }
  });

  it('rejects a wrong code with the server message in a Login Failed toast', async () => {
    const { context, page } = await newAppPage(browser, baseUrl);
    try {
      await page.goto('/');
      await page.getByLabel('Email').fill('nobody@example.com');
      await page.getByLabel('Access code').fill('not-a-code-123');
      await page.getByRole('button', { name: 'login', exact: true }).click();
      await page.getByText('Login Failed', { exact: true }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('sessionToken'))).toBeNull();
      await saveScreenshot(page, 'auth-login-failed');
    } finally {
      await context.close();
    }
  });

  it('signs up with a generated code, keeps the session on reload, shows 404 for unknown paths, logs out', async () => {
    const code = await generateAccessCode(baseUrl, adminCode);
    const { context, page } = await newAppPage(browser, baseUrl);
    try {
      const { email } = await signUpThroughUi(page, code, 'auth');
      expect(await page.evaluate(() => localStorage.getItem('sessionToken'))).toMatch(/\S{20,}/);
      await page.getByRole('button', { name: 'app page audit' }).waitFor();
      await page.getByRole('button', { name: 'dashboard', exact: true }).waitFor();
      await page.getByRole('button', { name: 'start ASO analysis' }).waitFor();
      await saveScreenshot(page, 'auth-signed-up-main-screen');

      // The session check runs once per page load, and is not retried.
      const checks: string[] = [];
      page.on('request', (req) => {
        if (new URL(req.url()).pathname === '/api/check-access') checks.push(req.method());
      });
      await page.reload();
      await page.getByTestId('user-email').filter({ hasText: email }).waitFor();
      // Every request of the load has ended: a retried check would have been sent by now.
      await page.waitForLoadState('networkidle');
      expect(checks).toEqual(['GET']);

      await page.goto('/this/path/does/not/exist');
      await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      await saveScreenshot(page, 'auth-404');

      await page.goto('/');
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.getByRole('button', { name: 'login', exact: true }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('sessionToken'))).toBeNull();
      await saveScreenshot(page, 'auth-logged-out');
    } finally {
      await context.close();
    }
  });

  it('drops a token the server no longer knows and shows the login screen', async () => {
    const { context, page } = await newAppPage(browser, baseUrl);
    try {
      await page.goto('/');
      await page.evaluate(() =>
        localStorage.setItem('sessionToken', 'revoked-or-unknown-token-0123456789'),
      );
      await page.reload();
      await page.getByRole('button', { name: 'login', exact: true }).waitFor();
      await expect.poll(() => page.evaluate(() => localStorage.getItem('sessionToken'))).toBeNull();
    } finally {
      await context.close();
    }
  });
});
