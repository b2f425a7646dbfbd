/**
 * axe-core in the browser tests: injects `axe.source` into the page and runs the WCAG 2.0 /
 * 2.1 level A and AA rules, plus the best-practice rules this app holds itself to (headings
 * in order, one main landmark, named dialogs, a skip link that works).
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { Result } from 'axe-core';

const require = createRequire(import.meta.url);
/** The axe-core bundle, read once (about 550 KB of script). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0 and 2.1, levels A and AA (axe's tags). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

/**
 * Best-practice rules checked as well: Lighthouse's accessibility score counts the first ones,
 * and the dialog names are what a screen reader says when a dialog or popover opens.
 */
export const EXTRA_RULES = [
  'heading-order',
  'empty-heading',
  'page-has-heading-one',
  'landmark-one-main',
  'landmark-unique',
  'landmark-no-duplicate-main',
  'skip-link',
  'aria-dialog-name',
  'duplicate-id-aria',
] as const;

/** Viewports every screen is checked at (desktop and phone). */
export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** One violation, flattened for a readable failure message. */
export interface TAxeViolation {
  rule: string;
  impact: string | null | undefined;
  help: string;
  /** CSS selectors of the offending nodes with axe's summary of what is wrong. */
  nodes: string[];
}

function flatten(violations: Result[]): TAxeViolation[] {
  return violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`.trim()),
  }));
}

/**
 * Waits until every finite CSS animation and transition in the page has finished (a toast
 * sliding in or a popover fading in would otherwise be measured half transparent), then
 * two animation frames.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(SETTLE_SCRIPT);
}

/** {@link settle} in the page (a string: the page's DOM types are not this project's). */
const SETTLE_SCRIPT = `(async () => {
  // An element mounted just now starts its animation on the next frame: let it start first.
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
  await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
})()`;

/**
 * Runs axe on the whole page (WCAG 2.0/2.1 A and AA, and {@link EXTRA_RULES}) and returns the
 * violations, flattened. An empty array means none.
 */
export async function axeViolations(page: Page): Promise<TAxeViolation[]> {
  await settle(page);
  const injected = await page.evaluate<boolean>("typeof window.axe === 'object'");
  // Evaluated through the devtools protocol: the app's CSP forbids inline script tags.
  if (!injected) await page.evaluate(AXE_SOURCE);
  // One run over the union: the rules tagged WCAG 2.0/2.1 A/AA and the extra ones.
  const violations = await page.evaluate<Result[]>(`(async () => {
    const rules = [...new Set([
      ...axe.getRules(${JSON.stringify(WCAG_TAGS)}).map((r) => r.ruleId),
      ...${JSON.stringify(EXTRA_RULES)},
    ])];
    const options = { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] };
    return (await axe.run(document, options)).violations;
  })()`);
  return flatten(violations);
}
