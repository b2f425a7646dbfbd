import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_FIXTURES_DIR } from '../src/replay/env';

/** The recorded store answers: `<FIXTURES_DIR>/appstore` (house rule: read in place). */
export const APPSTORE_FIXTURES_DIR = path.join(
  process.env.FIXTURES_DIR && process.env.FIXTURES_DIR !== ''
    ? process.env.FIXTURES_DIR
    : DEFAULT_FIXTURES_DIR,
  'appstore',
);

/** Every file of the recordings folder, sorted. */
export function fixtureFiles(): string[] {
  return readdirSync(APPSTORE_FIXTURES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

/** The recorded product pages (`page2025_*`, `page2025-trimmed_*` HTML files), sorted. */
export function pageFixtureFiles(): string[] {
  return readdirSync(APPSTORE_FIXTURES_DIR)
    .filter((f) => /^page2025(-trimmed)?_.*\.html$/.test(f))
    .sort();
}

/** A recording's text, verbatim. */
export function readFixture(file: string): string {
  return readFileSync(path.join(APPSTORE_FIXTURES_DIR, file), 'utf8');
}

/** App id of a recording file name (`..._id<digits>_...`), or null. */
export function appIdOf(file: string): string | null {
  return /_id(\d+)_/.exec(file)?.[1] ?? null;
}

/* Raw readers: direct path reads of the recordings, independent of the parsers under test. */

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return,
   @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment,
   @typescript-eslint/no-unsafe-argument -- raw recordings are untyped JSON */

/** `d[0]` of a media-api recording (decoded twice). */
export function rawMediaApiApp(file: string): any {
  const outer = JSON.parse(readFixture(file));
  const inner = JSON.parse(Object.values(outer)[0] as string);
  return inner.d[0];
}

/** `results` of a lookup or search recording. */
export function rawLookupResults(file: string): any[] {
  return JSON.parse(readFixture(file)).results;
}

/** `data[0].data` of a 2025-layout page recording's serialized-server-data script. */
export function rawServerDataModel(file: string): any {
  const html = readFixture(file);
  const json = /<script[^>]*id="serialized-server-data"[^>]*>([\s\S]*?)<\/script>/.exec(html)![1]!;
  return JSON.parse(json).data[0].data;
}

/** `feed.entry` of a reviews recording, always an array. */
export function rawReviewEntries(file: string): any[] {
  const entry = JSON.parse(readFixture(file)).feed.entry;
  return entry === undefined ? [] : Array.isArray(entry) ? entry : [entry];
}
