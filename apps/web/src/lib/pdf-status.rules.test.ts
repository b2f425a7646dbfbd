import { describe, expect, it } from 'vitest';
import { pdfStatusPath, preparingLabel } from './pdf-status.rules';

describe('PDF status rules', () => {
  it('asks the status next to the PDF', () => {
    expect(pdfStatusPath('/api/audit/a%201/report.pdf')).toBe('/api/audit/a%201/report-status');
    expect(pdfStatusPath('/api/dashboards/d1/report.pdf')).toBe('/api/dashboards/d1/report-status');
    expect(pdfStatusPath('/api/shared/tok/report.pdf')).toBe('/api/shared/tok/report-status');
  });

  it('shows the renders ahead only while there are some', () => {
    expect(preparingLabel(3, 0)).toBe('preparing PDF... 3 s');
    expect(preparingLabel(4, 2)).toBe('preparing PDF... 4 s (queued behind 2)');
  });
});
