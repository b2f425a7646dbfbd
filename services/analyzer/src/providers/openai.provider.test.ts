import { describe, expect, it } from 'vitest';
import { checkedRewrite, retryAfterMs } from './openai.provider';

const headers = (h: Record<string, string>) => new Headers(h);

describe('openai provider helpers', () => {
  it('reads Retry-After in ms, seconds or as a date', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(
      retryAfterMs(
        headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }),
        Date.parse('2026-01-01T00:00:00Z'),
      ),
    ).toBe(10_000);
    expect(retryAfterMs(headers({}))).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
  });
  it('keeps a rewrite only within its limit: 30/31 characters, 100/101 bytes', () => {
    expect(checkedRewrite('title', 'a'.repeat(30))).toBe('a'.repeat(30));
    expect(checkedRewrite('title', 'a'.repeat(31))).toBeNull();
    expect(checkedRewrite('subtitle', 'é'.repeat(30))).toBe('é'.repeat(30));
    expect(checkedRewrite('keywords', 'é'.repeat(50))).toBe('é'.repeat(50));
    expect(checkedRewrite('keywords', `${'é'.repeat(50)}a`)).toBeNull();
    expect(checkedRewrite('keywords', 'music, radio')).toBeNull();
    expect(checkedRewrite('icon', 'anything')).toBeNull();
    expect(checkedRewrite('title', '   ')).toBeNull();
  });
});
