import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (/work/main in development). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Shared fixtures: `FIXTURES_DIR`, default `../shared/fixtures` relative to the repo root. */
export const FIXTURES_DIR = resolve(REPO_ROOT, process.env.FIXTURES_DIR ?? '../shared/fixtures');

/** Path of a sample App Store Connect export. */
export function ascFixture(name: string): string {
  return join(FIXTURES_DIR, 'asc-analytics', name);
}

/** Path of one of this service's constructed test files. */
export function constructedFixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** The sample export pairs with what their preambles and dates say. */
export const SAMPLE_EXPORTS = [
  {
    conversion: 'constructed_conversion_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
    redownloads:
      'constructed_redownloads_habit-tracker-pro_united-states_2025-06-01_2025-08-31.csv',
    appName: 'Habit Tracker Pro',
    territory: 'United States',
    start: '2025-06-01',
    end: '2025-08-31',
    days: 92,
  },
  {
    conversion: 'constructed_conversion_calm-notes_united-kingdom_2025-07-20_2025-08-18.csv',
    redownloads: 'constructed_redownloads_calm-notes_united-kingdom_2025-07-20_2025-08-18.csv',
    appName: 'Calm Notes: Journal & Mood',
    territory: 'United Kingdom',
    start: '2025-07-20',
    end: '2025-08-18',
    days: 30,
  },
  {
    conversion: 'constructed-nopreamble_conversion_tiny-budget_germany_2025-03-01_2025-03-14.csv',
    redownloads: 'constructed-nopreamble_redownloads_tiny-budget_germany_2025-03-01_2025-03-14.csv',
    appName: null,
    territory: null,
    start: '2025-03-01',
    end: '2025-03-14',
    days: 14,
  },
] as const;

/** Splits one line of the sample exports (double-quoted cells without inner quotes). */
export function splitSimpleCsvLine(line: string): string[] {
  const cells: string[] = [];
  const re = /("([^"]*)"|[^,]*)(,|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) !== null) {
    cells.push(m[2] ?? m[1] ?? '');
    if (m[3] === '') break;
  }
  return cells;
}

/**
 * An independent, deliberately simple read of a sample export (UTF-8 files only): the header
 * line is the first line starting with 'Date' or '"Date"'; every following non-empty line is
 * a data row as an object of raw cell texts.
 */
export function readSampleExport(path: string): {
  headers: string[];
  rows: Record<string, string>[];
} {
  const lines = readFileSync(path, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);
  const at = lines.findIndex((l) => l.startsWith('"Date"') || l.startsWith('Date,'));
  const headers = splitSimpleCsvLine(lines[at]!);
  const rows = lines
    .slice(at + 1)
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const cells = splitSimpleCsvLine(l);
      return Object.fromEntries(headers.map((h, i) => [h, cells[i] ?? '']));
    });
  return { headers, rows };
}

/** '1,234' -> 1234, '-' or '' -> null (the test's own reading of a number cell). */
export function rawNumber(text: string): number | null {
  if (text === '-' || text === '') return null;
  return Number(text.replace(/,/g, ''));
}

/**
 * A CONSTRUCTED export of `days` daily rows (M/D/YYYY from 1/1/1900), quoted thousands, a
 * text cell every 1,000th row and a '-' every 7th: several MB, so the bytes reach the thread
 * in many pieces under its in-flight limit.
 */
export function constructedExport(days: number, columns: string[]): Buffer {
  const lines = [
    '"Name","Constructed App"',
    '"Territory","Canada"',
    '',
    ['Date', ...columns].map((c) => `"${c}"`).join(','),
  ];
  const start = Date.UTC(1900, 0, 1);
  for (let i = 0; i < days; i++) {
    const d = new Date(start + i * 86_400_000);
    const date = `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;
    const cells = columns.map((_, col) => {
      if (i % 1000 === 0 && col === 0) return 'n/a';
      if (i % 7 === 0 && col === 1) return '-';
      const value = (i * 31 + col * 977) % 50_000;
      return value >= 1000 ? `"${value.toLocaleString('en-US')}"` : String(value);
    });
    lines.push([date, ...cells].join(','));
  }
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8');
}
