/**
 * The keyboard alone, at 1440x900 and 390x844 (WCAG 2.1 2.1.1 Keyboard, 2.4.1 Bypass Blocks,
 * 2.4.3 Focus Order, 2.4.7 Focus Visible, 4.1.3 Status Messages): the skip link; an audit
 * started with Enter, the focus on the progress heading and then on the result's heading, step
 * changes announced once each; saving, a toast reached with F8 and the focus back where it was
 * once the toast closes; a saved audit opened and deleted from the sidebar, the focus given
 * back when its confirmation closes and kept when its row goes; the dashboard's files chosen,
 * removed and uploaded, the focus on the dataset after the upload; the metric selector and the
 * date picker (a range chosen with the arrow keys) giving the focus back to their triggers; a
 * dialog giving it back to its trigger; the admin gate, and the admin screen's heading after
 * the unlock. On a phone the sidebar is a sheet, opened from its trigger.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newAppPage, screenshotOnFailure } from './support/browser';
import {
  focusedDescription,
  focusIsVisible,
  holdsFocus,
  isFocused,
  tabTo,
} from './support/keyboard';
import { generateAccessCode, signUpThroughUi } from './support/session';
import { CONVERSION, REDOWNLOADS, SPOTIFY_URL } from './support/samples';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const;

/** Records every text the app's live region takes, in order (`window.__announced`). */
const ANNOUNCEMENT_RECORDER = `(() => {
  window.__announced = [];
  const region = document.querySelector('[data-testid="live-announcer"]');
  new MutationObserver(() => window.__announced.push(region.textContent.trim())).observe(region, {
    childList: true, characterData: true, subtree: true,
  });
})()`;

/** Records the elements that take the focus, as `tag "text"` (`window.__focusLog`). */
const FOCUS_RECORDER = `(() => {
  window.__focusLog = [];
  document.addEventListener('focusin', (event) => {
    const el = event.target;
    window.__focusLog.push(el.tagName.toLowerCase() + ' "' + (el.textContent || '').trim() + '"');
  });
})()`;

/** 'Jul 2, 2025' from a day button's name ('2 July 2025, Wednesday, ...'). */
function dayOfLabel(label: string): string {
  const match = /^(\d+) (\w+) (\d{4})/.exec(label);
  if (!match) throw new Error(`not a day's name: ${label}`);
  return `${match[2]!.slice(0, 3)} ${match[1]}, ${match[3]}`;
}

async function expectFocused(page: Page, target: Locator, what: string): Promise<void> {
  await expect
    .poll(() => isFocused(target), {
      message: `${what}; focus is on ${await focusedDescription(page)}`,
    })
    .toBe(true);
}

describe.each(SIZES)('keyboard only at $name size', ({ name, viewport, phone }) => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  /** On a phone the sidebar is a closed sheet: opens it with the keyboard. */
  async function openSidebar(): Promise<void> {
    if (!phone) return;
    await tabTo(page, page.getByTestId('sidebar-trigger'), { backwards: true });
    await page.keyboard.press('Enter');
    await page.locator('[data-mobile="true"]').waitFor();
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newAppPage(browser, baseUrl, viewport));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  screenshotOnFailure(afterEach, () => page);

  it('skips to the main content from the first Tab stop, signed out and signed in', async () => {
    for (const signedIn of [false, true]) {
      if (signedIn)
        await signUpThroughUi(page, await generateAccessCode(baseUrl, adminCode), `kb-${name}`);
      else await page.goto('/');
      await page.getByRole('main').waitFor();
      // From the top of the page, as after a load.
      await page.reload();
      await page.getByRole('main').waitFor();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to main content' });
      await expectFocused(page, skip, 'the first Tab stop is the skip link');
      expect(await focusIsVisible(page)).toBe(true);
      const box = await skip.boundingBox();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      await page.keyboard.press('Enter');
      await expectFocused(page, page.getByRole('main'), 'the skip link moves the focus to main');
    }
  });

  it('runs an audit, saves it, reaches its toast, and opens and deletes it from the sidebar', async () => {
    await page.evaluate(ANNOUNCEMENT_RECORDER);
    await page.evaluate(FOCUS_RECORDER);
    // Main has the focus (the skip link's target): its first field is next.
    const appUrl = page.locator('#app-url');
    await tabTo(page, appUrl);
    await page.keyboard.type(SPOTIFY_URL);
    const start = page.getByRole('button', { name: 'start ASO analysis' });
    await tabTo(page, start);
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');

    const resultHeading = page.getByTestId('app-name');
    await page.getByTestId('feedback-box').waitFor({ timeout: 90_000 });
    await expectFocused(page, resultHeading, 'the result heading takes the focus');
    const focusLog = await page.evaluate<string[]>('window.__focusLog');
    const progressAt = focusLog.indexOf('h1 "ANALYZING YOUR APP"');
    expect(progressAt, focusLog.join(' > ')).toBeGreaterThanOrEqual(0);
    expect(focusLog.slice(progressAt + 1).some((f) => f.startsWith('h1 "Spotify'))).toBe(true);

    // One announcement per change of the steps, then the result: never the same text twice in
    // a row, never more than one per step start and end.
    await expect
      .poll(() => page.evaluate<string[]>('window.__announced'))
      .toContainEqual(expect.stringMatching(/^Audit results for Spotify/));
    const announced = await page.evaluate<string[]>('window.__announced');
    expect(announced[0]).toBe('Audit started.');
    expect(announced.at(-1)).toMatch(/overall ASO score \d+ out of 100/);
    expect(announced.length).toBeLessThanOrEqual(2 * 12 + 2);
    for (let i = 1; i < announced.length; i++) expect(announced[i]).not.toBe(announced[i - 1]);

    // Save: the button keeps the focus as it turns into 'saved'.
    const save = page.getByTestId('save-audit');
    await tabTo(page, save, { backwards: true });
    await page.keyboard.press('Enter');
    await page.getByText('Audit Saved', { exact: true }).waitFor();
    await expect.poll(() => save.getAttribute('data-saved')).toBe('true');
    await expectFocused(page, save, 'the save button keeps the focus');

    // F8 reaches the toast; its close button shows its focus.
    await page.keyboard.press('F8');
    const close = page.getByRole('button', { name: 'Close notification' });
    await tabTo(page, close, { max: 3 });
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByText('Audit Saved', { exact: true }).waitFor({ state: 'detached' });
    await expectFocused(page, save, 'a closed toast gives the focus back to where F8 took it');

    // The saved audit, from the sidebar: a new analysis first, then the saved one opened.
    await tabTo(page, page.getByRole('button', { name: 'new analysis' }), { backwards: true });
    await page.keyboard.press('Enter');
    await appUrl.waitFor();
    await openSidebar();
    const row = page.getByTestId('saved-audit').first();
    await tabTo(page, row, { backwards: !phone });
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    await expectFocused(
      page,
      resultHeading,
      'an opened saved audit gives the focus to its heading',
    );

    // Delete: the confirmation gives the focus back to the trash button when cancelled.
    await openSidebar();
    const trash = page.getByRole('button', { name: /^Delete Spotify/ });
    await tabTo(page, trash, { backwards: !phone });
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog');
    // As a user would, the key goes to the dialog once it holds the focus: before that the
    // sheet under it is still the top layer and Escape would close the sheet instead.
    const confirmHasFocus = () => holdsFocus(confirm);
    await confirm.waitFor();
    await expect.poll(confirmHasFocus).toBe(true);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await expectFocused(page, trash, 'a cancelled confirmation gives the focus back');
    await page.keyboard.press('Enter');
    await confirm.waitFor();
    await expect.poll(confirmHasFocus).toBe(true);
    await tabTo(page, confirm.getByRole('button', { name: 'Delete', exact: true }), { max: 3 });
    await page.keyboard.press('Enter');
    await page.getByText('Deleted', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('saved-audit').count()).toBe(0);
    // The row is gone: the focus is somewhere on the screen, not dropped to the page.
    await expect.poll(() => focusedDescription(page)).not.toBe('BODY');
    if (phone) {
      // Escape closes the newest layer first: the toast, then the sheet.
      const sheet = page.locator('[data-mobile="true"]');
      await expect
        .poll(async () => {
          await page.keyboard.press('Escape');
          return sheet.count();
        })
        .toBe(0);
    }
  });

  it('uploads both exports, picks metrics and a date range, and closes a dialog', async () => {
    await page.evaluate('document.activeElement?.blur()');
    await openSidebar();
    await tabTo(page, page.getByRole('button', { name: 'dashboard', exact: true }));
    await page.keyboard.press('Enter');
    await page.getByTestId('upload-panel').waitFor();

    // The export help dialog gives the focus back to its '?' button.
    const help = page.getByRole('button', { name: 'How to export the conversion data file' });
    await tabTo(page, help);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expectFocused(page, help, 'a closed dialog gives the focus back to its trigger');

    // Each file field opens the file chooser with Space; its drop zone shows the focus. A
    // listener from now on has Chromium hand the choosers to the test from the first one (one
    // added only while waiting can come after the key press).
    const noop = () => undefined;
    page.on('filechooser', noop);
    await page.evaluate('0');
    const pick = async (slot: string, file: string) => {
      const chooser = page.waitForEvent('filechooser');
      await page.keyboard.press('Space');
      await (await chooser).setFiles(file);
      await page.getByTestId(`upload-${slot}`).getByTestId('file-name').waitFor();
    };
    const conversion = page.getByLabel('Choose the conversion data CSV file');
    await tabTo(page, conversion);
    expect(await focusIsVisible(page, { peer: true })).toBe(true);
    await pick('conversionCSV', CONVERSION);
    // Removing the file gives the focus back to the file field.
    await tabTo(page, page.getByRole('button', { name: /^Remove / }), { max: 2 });
    await page.keyboard.press('Enter');
    await expectFocused(page, conversion, 'removing a file gives the focus to its field');
    expect(await focusIsVisible(page, { peer: true })).toBe(true);
    await pick('conversionCSV', CONVERSION);
    await tabTo(page, page.getByLabel('Choose the redownloads data CSV file'));
    await pick('redownloadsCSV', REDOWNLOADS);
    await tabTo(page, page.getByRole('button', { name: 'upload CSV files' }));
    await page.keyboard.press('Enter');
    await page.getByTestId('chart-legend').waitFor({ timeout: 60_000 });
    await expectFocused(page, page.getByTestId('dataset-title'), 'the dataset takes the focus');
    page.off('filechooser', noop);

    // Metric selector: a checkbox per row, Space toggles, Escape gives the focus back.
    const metrics = page.getByTestId('metric-selector-trigger');
    await tabTo(page, metrics);
    const before = await metrics.textContent();
    await page.keyboard.press('Enter');
    const selector = page.getByTestId('metric-selector');
    await selector.waitFor();
    const firstUnchecked = selector.getByRole('checkbox', { checked: false }).first();
    await tabTo(page, firstUnchecked, { max: 8 });
    expect(await focusIsVisible(page)).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => metrics.textContent()).not.toBe(before);
    await page.keyboard.press('Escape');
    await selector.waitFor({ state: 'detached' });
    await expectFocused(page, metrics, 'the metric selector gives the focus back');

    // Date picker: it says how to move; a range chosen with the arrow keys and Enter.
    const trigger = page.getByTestId('date-range-trigger');
    await tabTo(page, trigger, { backwards: true });
    await page.keyboard.press('Enter');
    const picker = page.getByTestId('date-range-popover');
    await picker.waitFor();
    expect(await picker.getAttribute('aria-describedby')).toBeTruthy();
    const described = await page
      .locator(`[id="${await picker.getAttribute('aria-describedby')}"]`)
      .textContent();
    expect(described).toMatch(/Arrow keys move between days/);
    const day = picker.locator('.rdp-day_button:focus');
    await expect.poll(() => day.count()).toBe(1);
    await page.keyboard.press('ArrowRight');
    const startLabel = (await day.getAttribute('aria-label'))!;
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const endLabel = (await day.getAttribute('aria-label'))!;
    await page.keyboard.press('Enter');
    const chosen = `${dayOfLabel(startLabel)} - ${dayOfLabel(endLabel)}`;
    await expect.poll(() => picker.getByTestId('date-range-draft').textContent()).toBe(chosen);
    await tabTo(page, picker.getByRole('button', { name: 'Apply', exact: true }), { max: 8 });
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'detached' });
    expect(await page.getByTestId('applied-range').textContent()).toBe(`Applied: ${chosen}`);
    await expectFocused(page, trigger, 'Apply gives the focus back to the trigger');
    await page.keyboard.press('Enter');
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    await expectFocused(page, trigger, 'Escape gives the focus back to the trigger');

    // Saving keeps the focus on the button as it turns disabled.
    const save = page.getByRole('button', { name: 'save dashboard' });
    await tabTo(page, save, { backwards: true });
    await page.keyboard.press('Enter');
    await page.getByText('Dashboard Saved', { exact: true }).waitFor();
    await expect.poll(() => save.getAttribute('aria-disabled')).toBe('true');
    await expectFocused(page, save, 'the save button keeps the focus');
  });

  it('unlocks the admin screen and moves the focus to it', async () => {
    await page.goto('/admin');
    const gate = page.getByTestId('admin-gate');
    const field = gate.getByLabel('Admin code');
    await field.waitFor();
    await expectFocused(page, field, 'the admin code field has the focus');
    await page.keyboard.type('not-the-admin-code');
    await page.keyboard.press('Enter');
    await gate.getByTestId('admin-gate-error').waitFor();
    await expectFocused(page, field, 'a refused code gives the focus back to the field');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(adminCode);
    await page.keyboard.press('Enter');
    await expectFocused(
      page,
      page.getByRole('heading', { name: 'Admin dashboard', level: 1 }),
      'the admin screen heading takes the focus',
    );
  });
});
