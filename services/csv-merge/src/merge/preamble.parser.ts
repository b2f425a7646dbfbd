/** What the lines above an export's header row say (docs/product.md#merging-exports). */
export interface TPreamble {
  /** The app name: a `"Name",<app>` row, or the first line when it is a lone value. */
  appName: string | null;
  /** From a `Territory,<name>` row (also 'Territory: <name>' in one cell). */
  territory: string | null;
  /** The report's date range as written, e.g. 'Jun 1, 2025 - Aug 31, 2025'. */
  dateRange: string | null;
  /** The saved view or report name, e.g. 'Conversion Rate'. */
  view: string | null;
}

type TKey = keyof TPreamble;

const KEYS: Record<string, TKey> = {
  name: 'appName',
  app: 'appName',
  'app name': 'appName',
  'app title': 'appName',
  application: 'appName',
  'application name': 'appName',
  title: 'appName',
  territory: 'territory',
  territories: 'territory',
  country: 'territory',
  'country or region': 'territory',
  countries: 'territory',
  region: 'territory',
  storefront: 'territory',
  'date range': 'dateRange',
  dates: 'dateRange',
  date: 'dateRange',
  period: 'dateRange',
  'time period': 'dateRange',
  'report period': 'dateRange',
  range: 'dateRange',
  view: 'view',
  report: 'view',
  metric: 'view',
  metrics: 'view',
};

const DATE_TOKEN =
  /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{4}-\d{1,2}-\d{1,2}\b/gi;

/** True for text such as 'Jul 20, 2025 - Aug 18, 2025' or '6/1/25 - 8/31/25'. */
export function looksLikeDateRange(text: string): boolean {
  return (text.match(DATE_TOKEN)?.length ?? 0) >= 2;
}

function clean(cell: string): string {
  return cell.replace(/^[\s\ufeff\u200b]+|[\s\u200b]+$/g, '').replace(/\s+/g, ' ');
}

function keyOf(cell: string): TKey | undefined {
  return KEYS[cell.toLowerCase().replace(/[\s:=]+$/, '')];
}

/**
 * Reads the preamble rows of an export (docs/product.md#merging-exports). Real exports vary (3 to 5
 * lines, quoted or not, blank lines), so this is liberal:
 *
 * - A row whose first cell is a known key ('Name', 'App Name', 'Territory', 'Country',
 *   'Date Range', 'View', ... case-insensitive, a trailing ':' allowed) sets that field from
 *   the rest of the row; cells split by unquoted commas are joined back with ', '.
 * - A single cell 'Key: value' with a known key does the same.
 * - A row holding a date range ('Jul 20, 2025 - Aug 18, 2025') whose first cell is no key
 *   gives the date range, and its first cell (when it is not the range) the view name.
 * - The first non-empty row, when its first cell is no key and it is not a date range, is the
 *   app name (all its cells joined, since an unquoted name may contain commas), unless a
 *   'Name' row sets the app name explicitly.
 *
 * The first value found for a field wins; fields never found are null.
 */
export function parsePreamble(rows: readonly (readonly string[])[]): TPreamble {
  const out: TPreamble = { appName: null, territory: null, dateRange: null, view: null };
  let explicitName: string | null = null;
  let firstLineName: string | null = null;
  let seenFirst = false;
  const set = (key: TKey, value: string) => {
    if (value === '') return;
    if (key === 'appName') explicitName ??= value;
    else out[key] ??= value;
  };

  for (const raw of rows) {
    const cells = raw.map(clean);
    while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
    if (cells.length === 0) continue;
    const isFirst = !seenFirst;
    seenFirst = true;
    const first = cells[0]!;
    const rest = cells
      .slice(1)
      .filter((c) => c !== '')
      .join(', ');
    const key = keyOf(first);

    if (key && rest !== '') {
      set(key, rest);
      continue;
    }
    if (cells.length === 1) {
      const colon = /^([^:=]+)[:=]\s*(.+)$/.exec(first);
      const inlineKey = colon ? keyOf(colon[1]!) : undefined;
      if (colon && inlineKey) {
        set(inlineKey, clean(colon[2]!));
        continue;
      }
    }
    const joined = cells.join(', ');
    if (looksLikeDateRange(joined)) {
      if (looksLikeDateRange(first)) set('dateRange', joined);
      else {
        set('dateRange', rest);
        set('view', first);
      }
      continue;
    }
    if (isFirst && !key) firstLineName = joined;
  }
  out.appName = explicitName ?? firstLineName;
  return out;
}
