/**
 * Browser tests of the admin screen (docs/product.md#admin-screen): a wrong admin code is refused;
 * the right one unlocks the screen for the browser session; a code generated there lets a new user
 * register in a second browser context, and once deactivated there its login fails; clearing an
 * app's cache makes the next audit's cache step miss; the audit history and feedback lists show the
 * rows made earlier in the test; logout locks the screen again. Screenshots go to `artifacts/e2e/`.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ZAuditHistoryItem, type TAuditHistoryItem } from '@aso/contracts';
import { launchBrowser, newAppPage, saveScreenshot } from './support/browser';
import { generateAccessCode, signUpThroughUi } from './support/session';
import './support/provided';

const baseUrl = inject('baseUrl');
const adminCode = inject('adminCode');
const databaseUrl = inject('databaseUrl');

const SPOTIFY_ID = '324684580';
const SPOTIFY_URL = `https://apps.apple.com/us/app/spotify-music-and-podcasts/id${SPOTIFY_ID}`;

async function sessionToken(page: Page): Promise<string> {
  const value = await page.evaluate(() => localStorage.getItem('sessionToken'));
  if (!value) throw new Error('no session token in the page');
  return value;
}

/** One parsed server-sent event. */
interface TSse {
  event: string;
  data: unknown;
}

/**
 * Starts an audit of `url` through the api and follows its progress stream to the end.
 * Returns the audit id and the `cache_check` step's final message.
 */
async function runAudit(token: string, url: string): Promise<{ id: string; cacheMessage: string }> {
  const headers = { authorization: `Bearer ${token}` };
  const started = await fetch(`${baseUrl}/api/analyze`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ appStoreUrl: url }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!started.ok) throw new Error(`analyze answered ${started.status}: ${await started.text()}`);
  const { id } = (await started.json()) as { id: string };

  const stream = await fetch(`${baseUrl}/api/progress?auditId=${id}`, {
    headers,
    signal: AbortSignal.timeout(110_000),
  });
  if (!stream.ok || !stream.body) throw new Error(`progress answered ${stream.status}`);
  const decoder = new TextDecoder();
  const events: TSse[] = [];
  let buffer = '';
  // Node's web stream is async-iterable; leaving the loop cancels it.
  read: for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!event || data === undefined) continue;
      events.push({ event, data: JSON.parse(data) as unknown });
      if (event === 'complete' || event === 'error') break read;
    }
  }
  const last = events.at(-1);
  if (last?.event !== 'complete')
    throw new Error(`audit ${id} did not complete: ${JSON.stringify(last)}`);
  const cacheSteps = events
    .filter((e) => e.event === 'step')
    .map((e) => e.data as { step_id: string; status: string; message: string })
    .filter((s) => s.step_id === 'cache_check' && s.status === 'done');
  const cacheMessage = cacheSteps.at(-1)?.message;
  if (cacheMessage === undefined)
    throw new Error(`audit ${id} reported no finished cache_check step`);
  return { id, cacheMessage };
}

async function adminList<T>(path: string, parse: (v: unknown) => T): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    headers: { 'x-access-code': adminCode },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return parse(await res.json());
}

describe('admin screen', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let userEmail: string;
  let userCode: string;
  let userSignInCode: string;
  const audits: { id: string; cacheMessage: string }[] = [];
  const feedbackText = `e2e admin feedback ${randomBytes(4).toString('hex')}: the keyword advice was useful`;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newAppPage(browser, baseUrl));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    userCode = await generateAccessCode(baseUrl, adminCode, 2);
    ({ email: userEmail, signInCode: userSignInCode } = await signUpThroughUi(
      page,
      userCode,
      'admin',
    ));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('refuses a wrong admin code', async () => {
    await page.goto('/admin');
    const gate = page.getByTestId('admin-gate');
    await gate.waitFor();
    // The first visit says how to unlock it.
    expect(await gate.getByTestId('admin-gate-help').innerText()).toMatch(
      /ADMIN_ACCESS_CODE[\s\S]*Invite codes and personal sign-in codes do not open this screen/,
    );
    await gate.getByLabel('Admin code').fill(`not-${adminCode}`);
    await gate.getByRole('button', { name: 'unlock admin' }).click();
    await gate.getByRole('alert').filter({ hasText: 'Invalid admin code' }).waitFor();
    // One message for one problem: under the field, no toast besides.
    expect(await page.getByText('Invalid admin code', { exact: false }).count()).toBe(1);
    expect(await page.getByText('Access Denied', { exact: true }).count()).toBe(0);
    expect(await page.getByTestId('admin-dashboard').count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('adminAccessCode'))).toBeNull();
    await saveScreenshot(page, 'admin-denied');
  });

  it('unlocks with the admin code for the rest of the browser session', async () => {
    const gate = page.getByTestId('admin-gate');
    await gate.getByLabel('Admin code').fill(adminCode);
    await gate.getByRole('button', { name: 'unlock admin' }).click();
    await page.getByTestId('admin-dashboard').waitFor();
    // Unlocked: nothing says the code is invalid any more.
    expect(await page.getByText('Invalid admin code', { exact: false }).count()).toBe(0);
    await page.reload();
    await page.getByTestId('admin-dashboard').waitFor();
    expect(await page.getByTestId('admin-gate').count()).toBe(0);
  });

  it('generates a code that a new user registers with; deactivated, its login fails', async () => {
    const card = page.getByTestId('generate-code-card');
    expect(await card.getByLabel('Max uses').inputValue()).toBe('3');
    await card.getByLabel('Max uses').fill('0');
    await card.getByRole('button', { name: 'Generate Code' }).click();
    await card.getByText('Max uses must be a whole number of at least 1').waitFor();
    await card.getByLabel('Max uses').fill('2');
    await card.getByLabel('Expires in days').fill('7');
    await card.getByRole('button', { name: 'Generate Code' }).click();
    const code = ((await card.getByTestId('generated-code-value').textContent()) ?? '').trim();
    expect(code.length).toBeGreaterThan(8);
    await card.getByRole('button', { name: 'copy' }).click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(code);

    const row = page.getByTestId(`code-row-${code}`);
    await row.waitFor();
    expect((await row.locator('td').nth(2).textContent())?.replace(/\s/g, '')).toBe('0/2');
    await saveScreenshot(page, 'admin-generated');

    // A new user signs up with it in another browser context.
    const second = await newAppPage(browser, baseUrl);
    let newEmail: string;
    let newSignInCode: string;
    try {
      ({ email: newEmail, signInCode: newSignInCode } = await signUpThroughUi(
        second.page,
        code,
        'admin-new',
      ));
    } finally {
      await second.context.close();
    }
    await page.getByRole('button', { name: 'refresh' }).click();
    await expect
      .poll(async () => (await row.locator('td').nth(2).textContent())?.replace(/\s/g, ''))
      .toBe('1/2');

    await row.getByRole('button', { name: `Deactivate ${code}` }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure?').waitFor();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('Code Deactivated', { exact: true }).waitFor();
    await row.waitFor({ state: 'detached' });

    const third = await newAppPage(browser, baseUrl);
    try {
      await third.page.goto('/');
      await third.page.getByLabel('Email').fill(newEmail);
      // Their own personal code: still refused, since the code they registered with is dead.
      await third.page.getByLabel('Personal sign-in code').fill(newSignInCode);
      await third.page.getByRole('button', { name: 'login', exact: true }).click();
      await third.page.getByText('Login Failed', { exact: true }).waitFor();
      expect(await third.page.getByRole('button', { name: 'start ASO analysis' }).count()).toBe(0);
      await saveScreenshot(third.page, 'admin-deactivated-login-failed');
    } finally {
      await third.context.close();
    }
  });

  it("clears an app's cache, and the next audit of that app misses the cache", async () => {
    const token = await sessionToken(page);
    audits.push(await runAudit(token, SPOTIFY_URL));
    // The first audit stored a snapshot (or found one): the second reuses it.
    audits.push(await runAudit(token, SPOTIFY_URL));
    expect(audits[1]!.cacheMessage).toMatch(/1 cache hit/);

    await page.getByRole('button', { name: 'refresh' }).click();
    const cacheRow = page.getByTestId(`cache-row-${SPOTIFY_ID}`);
    await cacheRow.waitFor();
    await saveScreenshot(page, 'admin-cache');
    await cacheRow.getByRole('button', { name: /Clear Cache/ }).click();
    await page.getByText('Cache Cleared', { exact: true }).waitFor();
    await cacheRow.waitFor({ state: 'detached' });

    audits.push(await runAudit(token, SPOTIFY_URL));
    expect(audits[2]!.cacheMessage).not.toMatch(/cache hit/);
    expect(audits[2]!.cacheMessage).toMatch(/Checked the cache/);

    // The store reads of those audits show in Store data health.
    await page.getByRole('button', { name: 'refresh' }).click();
    const health = page.getByTestId('store-health-card');
    await health.getByTestId('store-health-layouts').waitFor();
    expect(await health.getByTestId('store-health-layouts').textContent()).toContain(
      'Ember layout',
    );
    expect(await health.getByTestId('store-health-fields').textContent()).toContain('subtitle');
  });

  it('lists the audits and the feedback made earlier, newest first', async () => {
    const token = await sessionToken(page);
    const posted = await fetch(`${baseUrl}/api/feedback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ auditId: audits[0]!.id, feedback: feedbackText }),
    });
    expect(posted.status).toBe(200);

    await page.getByRole('button', { name: 'refresh' }).click();
    const history = await adminList('/api/admin/audit-history', (v) =>
      (v as unknown[]).map((i) => ZAuditHistoryItem.parse(i)),
    );
    const ours = history.filter((h: TAuditHistoryItem) => audits.some((a) => a.id === h.id));
    expect(ours).toHaveLength(3);
    // Newest first: the last audit of this test heads the list.
    expect(history[0]!.id).toBe(audits[2]!.id);

    const rows = page.getByTestId('audit-history-row');
    await expect.poll(() => rows.count()).toBe(history.length);
    for (let i = 0; i < 3; i++) {
      const cells = (await rows.nth(i).locator('td').allTextContents()).map((t) => t.trim());
      expect(cells[0]).toBe(history[i]!.appName ?? 'Unknown app');
      expect(cells[0]).toMatch(/Spotify/);
      expect(cells[1]).toBe(history[i]!.appStoreUrl);
      expect(cells[1]).toContain(`id${SPOTIFY_ID}`);
      expect(cells[2]).toBe(userCode);
      expect(cells[3]).toBe('User');
    }

    const feedback = page.getByTestId('feedback-item').filter({ hasText: feedbackText });
    await feedback.waitFor();
    expect(await feedback.textContent()).toContain('Spotify');
    await saveScreenshot(page, 'admin-history-feedback');
  });

  it('issues a new personal sign-in code from the Users card, shown once with a copy button', async () => {
    await page.getByRole('button', { name: 'refresh' }).click();
    const card = page.getByTestId('users-card');
    const row = card.getByTestId(`user-row-${userEmail}`);
    await row.waitFor();
    await row.getByRole('button', { name: `Issue a new sign-in code for ${userEmail}` }).click();
    const dialog = page.getByTestId('sign-in-code-dialog');
    const value = dialog.getByTestId('sign-in-code-value');
    await value.waitFor();
    const issued = ((await value.textContent()) ?? '').trim();
    expect(issued).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    expect(issued).not.toBe(userSignInCode);
    await dialog.getByRole('button', { name: 'copy code' }).click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(issued);
    await saveScreenshot(page, 'admin-users-new-sign-in-code');
    await dialog.getByRole('button', { name: 'I have saved it' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The previous code no longer signs in; the new one does (below, after logout).
    const old = await fetch(`${baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: userEmail, accessCode: userSignInCode }),
    });
    expect(old.status).toBe(401);
    userSignInCode = issued;
  });

  it('pages the Users card with "Load more", showing each user\'s storage and lock-outs', async () => {
    // Sixty older accounts (CONSTRUCTED, created in the past so this test's users stay on the
    // first page): past the default page of 50, the card offers the next page.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const tag = randomBytes(4).toString('hex');
    try {
      await client.query(
        `insert into users (email, created_at, lockouts, last_lockout_at)
         select 'older-${tag}-' || n || '@example.com', now() - interval '400 days' - n * interval '1 minute',
           case when n = 1 then 3 else 0 end, case when n = 1 then now() else null end
         from generate_series(1, 60) n`,
      );
    } finally {
      await client.end();
    }
    await page.getByRole('button', { name: 'refresh' }).click();
    const card = page.getByTestId('users-card');
    await card.getByTestId(`user-row-${userEmail}`).waitFor();
    const rows = card.locator('[data-testid^="user-row-"]');
    await expect.poll(() => rows.count()).toBe(50);
    const more = card.getByRole('button', { name: /^Load more users \(50 shown\)$/ });
    await more.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'admin-users-load-more');
    await more.click();
    await expect.poll(() => rows.count()).toBeGreaterThan(50);
    // Each next page until the last; then the button goes.
    const button = card.getByRole('button', { name: /^Load more users/ });
    while ((await button.count()) > 0) await button.click();
    await card.getByTestId(`user-row-older-${tag}-60@example.com`).waitFor();
    const locked = card.getByTestId(`user-row-older-${tag}-1@example.com`);
    expect((await locked.getByTestId('user-lockouts').textContent())?.trim()).toMatch(
      /^3 sign-in lock-outs, last /,
    );
    expect(
      await card.getByTestId(`user-row-${userEmail}`).getByTestId('user-lockouts').count(),
    ).toBe(0);
    expect((await locked.getByTestId('user-storage').textContent())?.trim()).toBe('0 Bytes');
    // The signed-up user stored nothing either; the column is there for each row.
    expect(
      (
        await card.getByTestId(`user-row-${userEmail}`).getByTestId('user-storage').textContent()
      )?.trim(),
    ).toMatch(/Bytes|KB|MB/);
  });

  it('locks the admin screen again on logout', async () => {
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByLabel('Personal sign-in code').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('adminAccessCode'))).toBeNull();

    await page.getByLabel('Email').fill(userEmail);
    await page.getByLabel('Personal sign-in code').fill(userSignInCode);
    await page.getByRole('button', { name: 'login', exact: true }).click();
    // Still on /admin: signed in again, the screen is locked behind the gate.
    await page.getByTestId('admin-gate').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(await page.getByTestId('admin-dashboard').count()).toBe(0);
  });
});
