import { describe, expect, it } from 'vitest';
import { UnrecoverableError } from '@aso/queue';
import {
  countPdfPages,
  headerFooterTemplates,
  isLastAttempt,
  pdfFileName,
  PRINT_LAYOUT_WIDTH_PX,
  printPath,
} from './render.handler';

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

  it('lays print pages out at the printed width of A4 before scaling', () => {
    // 190 mm of A4 without its margins is 718 px at 96 dpi; printed at 0.75 that is 957 px.
    expect(PRINT_LAYOUT_WIDTH_PX).toBe(957);
  });

  it('prints the header line escaped and the page numbers in the footer', () => {
    const { headerTemplate, footerTemplate } = headerFooterTemplates(
      'Tom & Jerry <Chase> · US storefront · Store data read 2026-11-28 09:14 UTC',
      'audit',
    );
    expect(headerTemplate).toContain(
      'Tom &#38; Jerry &#60;Chase&#62; · US storefront · Store data read 2026-11-28 09:14 UTC',
    );
    expect(headerTemplate).not.toContain('<Chase>');
    expect(footerTemplate).toContain('ASO audit report');
    expect(footerTemplate).toContain('<span class="pageNumber"></span>');
    expect(footerTemplate).toContain('<span class="totalPages"></span>');
    expect(headerFooterTemplates('x', 'dashboard').footerTemplate).toContain(
      'Analytics dashboard report',
    );
  });

  it("hands the owner's turn on only when the job ends for good", () => {
    const job = (attemptsMade: number) => ({ attemptsMade, opts: { attempts: 2 } });
    // The first of two attempts failed: BullMQ retries it, the turn stays.
    expect(isLastAttempt(job(0), new Error('chromium crashed'))).toBe(false);
    expect(isLastAttempt(job(1), new Error('chromium crashed'))).toBe(true);
    expect(isLastAttempt(job(0), new UnrecoverableError('the owner is gone'))).toBe(true);
    expect(isLastAttempt({ attemptsMade: 0, opts: {} }, new Error('x'))).toBe(true);
  });
});
