import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isAllowedAddress, WebhookAddressError } from './address.guard';

describe('isAllowedAddress', () => {
  it('allows public unicast addresses only', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) {
      expect(isAllowedAddress(ip), ip).toBe(true);
    }
    for (const ip of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      'fe80::1',
      'fd12:3456::1',
      '100.64.0.1',
      '0.0.0.0',
      '::',
      '255.255.255.255',
      '224.0.0.1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '198.18.0.1',
      'not an ip',
    ]) {
      expect(isAllowedAddress(ip), ip).toBe(false);
    }
  });

  it('allows loopback, and nothing else private, when loopback is enabled for tests', () => {
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('::1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('10.0.0.1', { allowLoopback: true })).toBe(false);
    expect(isAllowedAddress('169.254.169.254', { allowLoopback: true })).toBe(false);
  });
});

describe('checkWebhookUrl', () => {
  it('accepts a public IP literal and refuses private ones, other schemes and credentials', async () => {
    expect((await checkWebhookUrl('https://93.184.216.34/hook')).href).toBe(
      'https://93.184.216.34/hook',
    );
    await expect(checkWebhookUrl('http://[::1]:8080/')).rejects.toThrow(
      'url: ::1 resolves to ::1 (loopback)',
    );
    await expect(checkWebhookUrl('http://192.168.0.1/')).rejects.toThrow('(private network)');
    await expect(checkWebhookUrl('file:///etc/passwd')).rejects.toBeInstanceOf(WebhookAddressError);
    await expect(checkWebhookUrl('https://a:b@93.184.216.34/')).rejects.toThrow(
      'url: a user name or password in the URL is not accepted',
    );
  });
});
