/**
 * Browser tests of the audit form (docs/product.md#states-and-transitions and #validation-rules):
 * URL field states and messages from the shared URL rules, the 'Invalid URL' toast with the
 * disabled start button and inline hint, duplicate competitors, and the keywords counter's hard
 * limit.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { URL_ERROR_DUPLICATE, URL_ERROR_INVALID, URL_ERROR_NO_APP_ID } from '@aso/appstore';
import { launchBrowser, newAppPage, saveScreenshot, screenshotOnFailure } from './support/browser';
import { generateAccessCode, signUpThroughUi } from './support/session';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');

const SPOTIFY = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';
const INSTAGRAM = 'https://apps.apple.com/us/app/instagram/id389801252';

describe('audit form', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newAppPage(browser, baseUrl));
    await signUpThroughUi(page, await generateAccessCode(baseUrl, adminCode), 'form');
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  screenshotOnFailure(afterEach, () => page);

  const appUrl = () => page.locator('#app-url');
  const start = () => page.getByRole('button', { name: 'start ASO analysis' });
  const fieldStatus = (id: string) => page.getByTestId(`${id}-field`).getAttribute('data-status');

  it('marks a value that is not a URL invalid on blur, and resets it on edit', async () => {
    await appUrl().fill('not a url');
    expect(await fieldStatus('app-url')).toBe('idle');
    await appUrl().blur();
    await page.getByTestId('app-url-field').getByText(URL_ERROR_INVALID).waitFor();
    expect(await fieldStatus('app-url')).toBe('invalid');
    expect(await start().isDisabled()).toBe(true);
    await page
      .getByTestId('invalid-url-hint')
      .filter({ hasText: 'Please enter a valid App Store URL' })
      .waitFor();

    await appUrl().fill('not a url!');
    expect(await fieldStatus('app-url')).toBe('idle');
    expect(await start().isDisabled()).toBe(false);
    expect(await page.getByTestId('invalid-url-hint').count()).toBe(0);
  });

  it('shows the Invalid URL toast for a URL without the store host', async () => {
    await appUrl().fill('https://play.google.com/store/apps/details?id=com.spotify.music');
    await appUrl().blur();
    await page.getByText('Invalid URL', { exact: true }).waitFor();
    await page
      .getByText('Please enter a valid App Store URL (apps.apple.com)', { exact: true })
      .waitFor();
    expect(await start().isDisabled()).toBe(true);
    await page.getByTestId('invalid-url-hint').waitFor();
    await saveScreenshot(page, 'form-missing-host');
  });

  it('names a store URL without an app id', async () => {
    await appUrl().fill('https://apps.apple.com/us/app/spotify-music-and-podcasts');
    await appUrl().blur();
    await page.getByTestId('app-url-field').getByText(URL_ERROR_NO_APP_ID).waitFor();
    expect(await start().isDisabled()).toBe(true);
  });

  it('accepts a valid URL and shows its app id', async () => {
    await appUrl().fill(SPOTIFY);
    await appUrl().blur();
    expect(await fieldStatus('app-url')).toBe('valid');
    await page.getByTestId('app-url-field').getByText('324684580').waitFor();
    expect(await start().isDisabled()).toBe(false);
  });

  it('flags competitors that repeat the main app or an earlier competitor', async () => {
    await page.locator('#competitor-url-1').fill(INSTAGRAM);
    await page.locator('#competitor-url-1').blur();
    expect(await fieldStatus('competitor-url-1')).toBe('valid');

    await page
      .locator('#competitor-url-2')
      .fill('https://apps.apple.com/gb/app/instagram/ID389801252?see-all=x');
    await page.locator('#competitor-url-2').blur();
    await page.getByTestId('competitor-url-2-field').getByText(URL_ERROR_DUPLICATE).waitFor();

    await page.locator('#competitor-url-3').fill(SPOTIFY);
    await page.locator('#competitor-url-3').blur();
    await page.getByTestId('competitor-url-3-field').getByText(URL_ERROR_DUPLICATE).waitFor();
    expect(await fieldStatus('competitor-url-1')).toBe('valid');
    await saveScreenshot(page, 'form-duplicate-competitors');
  });

  it('counts keywords live and stops at 100 characters', async () => {
    const keywords = page.locator('#keywords');
    await keywords.fill('music,podcast');
    expect(await page.getByTestId('keywords-counter').textContent()).toBe('13/100');
    await keywords.fill('');
    await keywords.pressSequentially('a'.repeat(95), { delay: 0 });
    expect(await page.getByTestId('keywords-counter').textContent()).toBe('95/100');
    await keywords.pressSequentially('bcdefghijk', { delay: 0 });
    expect(await keywords.inputValue()).toBe(`${'a'.repeat(95)}bcdef`);
    expect(await page.getByTestId('keywords-counter').textContent()).toBe('100/100');
    // Pasting past the limit is cut too.
    await keywords.fill('x'.repeat(150));
    expect((await keywords.inputValue()).length).toBe(100);
    await saveScreenshot(page, 'form-keywords-limit');
  });

  it('returns to the form with the Analysis Failed toast and the server message when the audit fails', async () => {
    // An app id the recordings do not hold: the store answers "no such app" and the audit fails.
    const unknown = 'https://apps.apple.com/us/app/no-such-app/id999999999';
    await page.locator('#keywords').fill('');
    for (const n of [1, 2, 3]) await page.locator(`#competitor-url-${n}`).fill('');
    await appUrl().fill(unknown);
    await start().click();
    await page.getByText('Analysis Failed', { exact: true }).waitFor({ timeout: 90_000 });
    const message = await page
      .locator('ol > li')
      .filter({ hasText: 'Analysis Failed' })
      .innerText();
    expect(message.replace('Analysis Failed', '').trim().length).toBeGreaterThan(5);
    // Back on the form, with what was typed.
    await start().waitFor();
    expect(await appUrl().inputValue()).toBe(unknown);
    await saveScreenshot(page, 'form-analysis-failed');
  });
});
