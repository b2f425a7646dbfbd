import { describe, expect, it } from 'vitest';
import { countPdfPages, pdfFileName, printPath } from './render.handler';

describe('render helpers', () => {
  it('opens the print page of the subject', () => {
    expect(printPath({ kind: 'audit', subjectId: 'a1' })).toBe('/print/audit/a1');
    expect(printPath({ kind: 'dashboard', subjectId: 'd 2' })).toBe('/print/dashboard/d%202');
  });

  it('names the file after the page title', () => {
    expect(pdfFileName('Spotify: Music and Podcasts US ASO audit', 'audit')).toBe(
      'spotify-music-and-podcasts-us-aso-audit-report.pdf',
    );
    expect(pdfFileName('Café Olé', 'dashboard')).toBe('cafe-ole-report.pdf');
    expect(pdfFileName('!!!', 'dashboard')).toBe('dashboard-report.pdf');
  });

  it('counts the page objects of a PDF, not its page tree', () => {
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Pages /Count 2 >>\n2 0 obj << /Type /Page >>\n3 0 obj <</Type/Page/Parent 1 0 R>>\n',
      'latin1',
    );
    expect(countPdfPages(pdf)).toBe(2);
  });
});
