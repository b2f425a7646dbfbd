import { describe, expect, it } from 'vitest';
import { ApiError, arrayOf, serverMessage } from './api';

describe('ApiError (docs/product.md#error-catalogue: "<status>: <body text>")', () => {
  it('uses the body text, or the status text when the body is empty', () => {
    const body = '{"message":"Audit not found","code":"NOT_FOUND"}';
    const error = new ApiError(404, body, 'Not Found');
    expect(error.message).toBe(`404: ${body}`);
    expect(error.body).toEqual({ message: 'Audit not found', code: 'NOT_FOUND' });
    expect(new ApiError(502, '', 'Bad Gateway').message).toBe('502: Bad Gateway');
    expect(new ApiError(500, 'upstream exploded').body).toBeNull();
  });
});

describe('serverMessage', () => {
  it("prefers the body's message, then the raw text, then the fallback", () => {
    expect(
      serverMessage(
        new ApiError(401, '{"message":"Invalid email or access code","code":"UNAUTHORIZED"}'),
        'x',
      ),
    ).toBe('Invalid email or access code');
    expect(serverMessage(new ApiError(500, 'upstream exploded'), 'x')).toBe('upstream exploded');
    expect(serverMessage(new ApiError(500, '  '), 'Failed to login.')).toBe('Failed to login.');
    expect(serverMessage(new TypeError('Failed to fetch'), 'Failed to login.')).toBe(
      'Failed to login.',
    );
  });
});

describe('arrayOf', () => {
  const item = { parse: (v: unknown) => (typeof v === 'number' ? v : Number.NaN) };
  it('parses each item of an array and refuses anything else', () => {
    expect(arrayOf(item).parse([1, 2])).toEqual([1, 2]);
    expect(() => arrayOf(item).parse({ length: 1 })).toThrow('expected a JSON array');
  });
});
