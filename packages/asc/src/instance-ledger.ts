/**
 * The Dates of an instance whose record set replaces what is stored: each Date is owned by
 * the newest instance (latest `processingDate`, YYYY-MM-DD) that carried it, and that
 * instance's records replace older instances' records for the Date as a whole, never merged
 * ("Don't merge records for a Date across two report instances",
 * https://developer.apple.com/documentation/analytics-reports/data-completeness-corrections).
 * `owners`: the processing date of each Date's current owner; an instance of the same
 * processing date replaces too (the later read of equal standing wins).
 */
export function datesToReplace(
  owners: ReadonlyMap<string, string>,
  processingDate: string,
  dates: Iterable<string>,
): string[] {
  const out: string[] = [];
  for (const date of new Set(dates)) {
    const owner = owners.get(date);
    if (owner === undefined || owner <= processingDate) out.push(date);
  }
  return out.sort();
}
