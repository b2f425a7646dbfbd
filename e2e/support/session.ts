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
  return ZGenerateCodeAnswer.parse(await res.json()).code.code;
}

/** A unique email for one test run. */
export function uniqueEmail(tag: string): string {
  return `e2e-${tag}-${randomBytes(4).toString('hex')}@example.com`;
}

/**
 * Signs up through the login screen's "sign up" mode and waits for the main screen's form.
 * Returns the email used.
 */
export async function signUpThroughUi(
  page: Page,
  accessCode: string,
  tag: string,
): Promise<string> {
  const email = uniqueEmail(tag);
  await page.goto('/');
  await page.getByRole('button', { name: 'sign up', exact: true }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Access code').fill(accessCode);
  await page.getByRole('button', { name: 'sign up', exact: true }).first().click();
  // The form shows on every width (the email is inside the sidebar, a closed sheet on phones).
  await page.getByRole('button', { name: 'start ASO analysis' }).waitFor();
  return email;
}
