import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhook, verifyWebhookSignature } from './webhook.signature';

describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const body = '{"id":"1","type":"webhook.test"}';

  it('signs "<t>.<body>" with HMAC-SHA256 in the t=..,v1=.. form', () => {
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(signWebhook(secret, body, 1_700_000_000)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('verifies its own signature and refuses another secret, body or an old timestamp', () => {
    const header = signWebhook(secret, body, 1_700_000_000);
    expect(verifyWebhookSignature(secret, header, body, 300, 1_700_000_100)).toBe(true);
    expect(verifyWebhookSignature('whsec_other', header, body, 300, 1_700_000_100)).toBe(false);
    expect(verifyWebhookSignature(secret, header, `${body} `, 300, 1_700_000_100)).toBe(false);
    expect(verifyWebhookSignature(secret, header, body, 300, 1_700_000_400)).toBe(false);
    expect(verifyWebhookSignature(secret, 'v1=abc', body)).toBe(false);
  });

  it('makes distinct secrets of 32 random bytes', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});
