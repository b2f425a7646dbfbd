/**
 * Browser tests of access (docs/product.md#sign-in-screen): login screen on every path while
 * anonymous, sign up with a generated code, the missing-fields message, signing in with an
 * invite code (told to sign up with it, and able to), the notice for accounts without a
 * personal code shown to those only, logout, the 404 page.
 */
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newAppPage, saveScreenshot } from './support/browser';
import { generateAccessCode, signUpThroughUi, uniqueEmail } from './support/session';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');
const databaseUrl = inject('databaseUrl');

/** Fills the login form (in its current mode) and submits it. */
async function submitSignIn(page: Page, email: string, code: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.locator('#access-code').fill(code);
  await page
    .locator('form')
    .getByRole('button', { name: /^(login|sign up)$/ })
    .click();
}

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

  it('rejects a wrong code with the server message, once, under the form', async () => {
    const { context, page } = await newAppPage(browser, baseUrl);
    try {
      await page.goto('/');
      // The code field says which code it takes, and the screen says what each code is.
      await page.getByLabel('Personal sign-in code').waitFor();
      expect(await page.getByTestId('code-explanation').innerText()).toMatch(
        /Invite code:.*signs you up once[\s\S]*Personal sign-in code:.*signs you in/,
      );
      await submitSignIn(page, 'nobody@example.com', 'not-a-code-123');
      const problem = page.getByTestId('sign-in-problem');
      await problem.getByText('Login Failed', { exact: true }).waitFor();
      expect(await problem.innerText()).toContain('Invalid email or access code');
      // One message: no toast says it again.
      expect(await page.getByText('Login Failed', { exact: true }).count()).toBe(1);
      // The notice for accounts made before personal codes is not for everyone.
      expect(await page.getByText('personal sign-in code yet', { exact: false }).count()).toBe(0);
      expect(await page.evaluate(() => localStorage.getItem('sessionToken'))).toBeNull();
      await saveScreenshot(page, 'auth-login-failed');
      // Editing the code clears it.
      await page.locator('#access-code').fill('another-try');
      await problem.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });

  it('answers an invite code at sign-in with "sign up with it", and signs up with it', async () => {
    const code = await generateAccessCode(baseUrl, adminCode);
    const { context, page } = await newAppPage(browser, baseUrl);
    try {
      await page.goto('/');
      const email = uniqueEmail('invite');
      await submitSignIn(page, email, code);
      const problem = page.getByTestId('sign-in-problem');
      await problem.getByText('Invite code, not a sign-in code', { exact: true }).waitFor();
      expect(await problem.innerText()).toMatch(/sign up with it/);
      expect(await problem.innerText()).not.toMatch(/invalid/i);
      await saveScreenshot(page, 'auth-invite-code-at-sign-in');
      await problem.getByRole('button', { name: 'sign up with this code' }).click();
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      await problem.waitFor({ state: 'detached' });
      // The email and the code are kept: one click signs up.
      expect(await page.getByLabel('Invite code').inputValue()).toBe(code);
      await page.locator('form').getByRole('button', { name: 'sign up', exact: true }).click();
      const dialog = page.getByTestId('sign-in-code-dialog');
      const signInCode = (
        (await dialog.getByTestId('sign-in-code-value').textContent()) ?? ''
      ).trim();
      await dialog.getByRole('button', { name: 'I have saved it' }).click();
      await page.getByRole('button', { name: 'start ASO analysis' }).waitFor();
      // No message of the refused attempt is left once signed in.
      expect(
        await page.getByText('Invite code, not a sign-in code', { exact: false }).count(),
      ).toBe(0);

      // Signed out, the invite code still does not sign in; the personal code does.
      await page.getByRole('button', { name: 'Logout' }).click();
      await submitSignIn(page, email, code);
      await problem.getByText('Invite code, not a sign-in code', { exact: true }).waitFor();
      await submitSignIn(page, email, signInCode);
      await page.getByRole('button', { name: 'start ASO analysis' }).waitFor();
      expect(await page.getByTestId('sign-in-problem').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('tells only an account without a personal code to ask for one', async () => {
    const code = await generateAccessCode(baseUrl, adminCode);
    const { context, page } = await newAppPage(browser, baseUrl);
    try {
      const { email } = await signUpThroughUi(page, code, 'legacy');
      await page.getByRole('button', { name: 'Logout' }).click();
      // An account made before personal codes: it has none.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query('update users set sign_in_code_hash = null where email = $1', [email]);
      } finally {
        await client.end();
      }
      await submitSignIn(page, email, code);
      const problem = page.getByTestId('sign-in-problem');
      await problem.getByText('No personal sign-in code yet', { exact: true }).waitFor();
      expect(await problem.innerText()).toMatch(/ask your administrator/i);
      await saveScreenshot(page, 'auth-no-personal-code');
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
