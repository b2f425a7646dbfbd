import { parse as parseContentDisposition } from 'content-disposition';
import { describe, expect, it } from 'vitest';
import { attachmentHeader, buildDashboardName, mergedFileName, slugify } from './analytics.service';
import { mergeJobId } from './upload-merge.service';
import { isCsvFileName } from './upload.service';

describe('mergedFileName', () => {
  it('slugifies app name and territory', () => {
    expect(mergedFileName('Calm Notes: Journal & Mood', 'United Kingdom')).toBe(
      'calm-notes-journal-mood-united-kingdom-merged.csv',
    );
    expect(mergedFileName('Café Zürich', "Côte d'Ivoire")).toBe(
      'cafe-zurich-cote-d-ivoire-merged.csv',
    );
  });

  it("uses 'dataset' for an unknown app and leaves an unknown territory out", () => {
    expect(mergedFileName(null, null)).toBe('dataset-merged.csv');
    expect(mergedFileName(null, 'Germany')).toBe('dataset-germany-merged.csv');
    expect(mergedFileName('Tiny Budget', null)).toBe('tiny-budget-merged.csv');
    expect(mergedFileName('日記', '  ')).toBe('dataset-merged.csv');
  });

  it('slugify keeps only lower-case ASCII letters and digits', () => {
    expect(slugify('  --Habit Tracker PRO 2!--  ')).toBe('habit-tracker-pro-2');
  });
});

describe('attachmentHeader', () => {
  it('names the file, quoting and adding the RFC 8187 form only where needed', () => {
    expect(attachmentHeader('a-b-merged.csv')).toBe('attachment; filename=a-b-merged.csv');
    expect(attachmentHeader('a"b.csv')).toBe('attachment; filename="a\\"b.csv"');
    expect(attachmentHeader('Journal – août.pdf')).toBe(
      `attachment; filename="Journal ? ao?t.pdf"; filename*=UTF-8''Journal%20%E2%80%93%20ao%C3%BBt.pdf`,
    );
  });
  it('reads back as the same name', () => {
    for (const name of ['a-b-merged.csv', 'a"b.csv', 'Journal – août.pdf', '日記.csv']) {
      const { parameters } = parseContentDisposition(attachmentHeader(name));
      expect(parameters.filename).toBe(name);
    }
  });
});

describe('buildDashboardName', () => {
  it('is app name, territory and the UTC day as dd-mm-yyyy', () => {
    expect(
      buildDashboardName('Habit Tracker Pro', 'United States', new Date('2025-08-03T23:30:00Z')),
    ).toBe('Habit Tracker Pro United States 03-08-2025');
    expect(
      buildDashboardName('  Tiny   Budget ', ' Germany', new Date('2025-12-31T00:00:00Z')),
    ).toBe('Tiny Budget Germany 31-12-2025');
  });

  it('refuses an invalid date', () => {
    expect(() => buildDashboardName('A', 'B', new Date('nope'))).toThrow(RangeError);
  });
});

describe('upload helpers', () => {
  it('accepts names ending in .csv in any case', () => {
    expect(['a.csv', 'EXPORT.CSV', ' b.Csv '].map(isCsvFileName)).toEqual([true, true, true]);
    expect(['a.txt', 'csv', 'a.csv.txt', 'a.csvx', ''].map(isCsvFileName)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('merge job ids have the three-part form BullMQ accepts', () => {
    expect(mergeJobId({ conversionUploadId: 'c1', redownloadsUploadId: null })).toBe(
      'c1:merge:none',
    );
    expect(mergeJobId({ conversionUploadId: null, redownloadsUploadId: 'r1' })).toBe(
      'none:merge:r1',
    );
  });
});
