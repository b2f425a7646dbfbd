/**
 * Name of a saved audit: '<app name> <CC> <dd-mm-yyyy>' (docs/product.md#entities, Saved audit: app
 * name, two-letter storefront, date day-month-year with dashes). `storefront` is upper-cased
 * (default 'us' when empty); the date is read in the runtime's local time zone (the browser's for
 * the web app), so the name shows the day the user saved it. Throws a RangeError for an invalid
 * date.
 */
export function buildSavedAuditName(
  appName: string,
  storefront: string | null | undefined,
  date: Date,
): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('date must be a valid Date');
  const cc = (storefront?.trim() || 'us').toUpperCase();
  const dd = String(date.getDate()).padStart(2, '0');
  const mm = String(date.getMonth() + 1).padStart(2, '0');
  const name = appName.trim().replace(/\s+/g, ' ');
  return `${name} ${cc} ${dd}-${mm}-${date.getFullYear()}`;
}
