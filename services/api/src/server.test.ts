import { describe, expect, it } from 'vitest';
import { redactUrl } from './server';

describe('redactUrl', () => {
  it('hides access codes in admin paths and code parameters', () => {
    expect(redactUrl('/api/admin/codes/ABCD-EFGH-JKMN-PQRS')).toBe('/api/admin/codes/[redacted]');
    expect(redactUrl('/api/admin/codes/ABCD?x=1')).toBe('/api/admin/codes/[redacted]?x=1');
    expect(redactUrl('/API/Admin/Codes/ABCD')).toBe('/API/Admin/Codes/[redacted]');
    expect(redactUrl('/admin/queues?CODE=secret')).toBe('/admin/queues?CODE=[redacted]');
    expect(redactUrl('/admin/queues?code=secret&page=2')).toBe(
      '/admin/queues?code=[redacted]&page=2',
    );
    expect(redactUrl('/admin/queues?page=2&code=secret')).toBe(
      '/admin/queues?page=2&code=[redacted]',
    );
  });

  it('leaves other URLs alone', () => {
    expect(redactUrl('/api/admin/codes')).toBe('/api/admin/codes');
    expect(redactUrl('/api/audit/123?auditId=9')).toBe('/api/audit/123?auditId=9');
    expect(redactUrl('/api/progress?auditId=1&barcode=2')).toBe(
      '/api/progress?auditId=1&barcode=2',
    );
  });
});
