import type { Page } from 'playwright-core';

/**
 * Picks the dashboard's whole recorded range, 1 June to 31 August 2025, in the open date range
 * popover (its months stepped to with the calendar's own buttons), applies it and waits for the
 * popover to close.
 */
export async function applyJuneToAugust2025(page: Page): Promise<void> {
  const popover = page.getByTestId('date-range-popover');
  const pick = async (month: string, dayName: RegExp, step: RegExp) => {
    await popover.getByRole('grid').first().waitFor();
    while ((await popover.getByRole('grid', { name: new RegExp(month) }).count()) === 0)
      await popover.getByRole('button', { name: step }).click();
    await popover
      .getByRole('grid', { name: new RegExp(month) })
      .getByRole('button', { name: dayName })
      .click();
  };
  await pick('June', /^1 June 2025,/, /previous month/i);
  await pick('August', /^31 August 2025,/, /next month/i);
  await popover.getByRole('button', { name: 'Apply' }).click();
  await popover.waitFor({ state: 'detached' });
}
