/**
 * Sign-up helpers: a fresh access code from the admin API, and signing up through the UI.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { ZGenerateCodeAnswer } from '@aso/contracts';

/** Generates a one-use access code through `POST /api/admin/generate-code` (admin code header). */
export async function generateAccessCode(
  baseUrl: string,
  adminCode: string,
  maxUses = 1,
): Promise<string> {
  const res = await fetch(`${baseUrl}/api/admin/generate-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-code': adminCode },
    body: JSON.stringify({ maxUses }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`generate-code answered ${res.status}: ${await res.text()}`);
  const { code } = ZGenerateCodeAnswer.parse(await res.json()).code;
  if (code === null) throw new Error('generate-code answered a code without its text');
  return code;
}

/** A unique email for one test run. */
export function uniqueEmail(tag: string): string {
  return `e2e-${tag}-${randomBytes(4).toString('hex')}@example.com`;
}

/**
 * Signs up through the login screen's "sign up" mode, reads the personal sign-in code from the
 * dialog shown once after sign-up, closes it, and waits for the main screen's form. Returns
 * the email used and the personal sign-in code (what login takes from then on).
 */
export async function signUpThroughUi(
  page: Page,
  accessCode: string,
  tag: string,
): Promise<{ email: string; signInCode: string }> {
  const email = uniqueEmail(tag);
  await page.goto('/');
  await page.getByRole('button', { name: 'sign up', exact: true }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Invite code').fill(accessCode);
  await page.getByRole('button', { name: 'sign up', exact: true }).first().click();
  const dialog = page.getByTestId('sign-in-code-dialog');
  const value = dialog.getByTestId('sign-in-code-value');
  await value.waitFor();
  const signInCode = ((await value.textContent()) ?? '').trim();
  if (!/^[0-9A-Z]{4}(-[0-9A-Z]{4})+$/.test(signInCode))
    throw new Error(`the sign-up dialog showed no sign-in code: "${signInCode}"`);
  await dialog.getByRole('button', { name: 'I have saved it' }).click();
  await dialog.waitFor({ state: 'detached' });
  // The form shows on every width (the email is inside the sidebar, a closed sheet on phones).
  await page.getByRole('button', { name: 'start ASO analysis' }).waitFor();
  return { email, signInCode };
}
