import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signing of webhook POSTs with HMAC-SHA256, in the form Stripe documents for its webhooks
 * (https://docs.stripe.com/webhooks#verify-manually): the header
 * `X-Aso-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the
 * user's secret as key. The timestamp in the signed text lets a receiver refuse replays.
 */

/** Name of the signature header. */
export const SIGNATURE_HEADER = 'x-aso-signature';

/** A new webhook signing secret: `whsec_` and 32 random bytes in base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The hex HMAC-SHA256 of `<timestamp>.<body>` with `secret`. */
function mac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * The `X-Aso-Signature` value of `body` (the exact bytes sent, as UTF-8 text) at
 * `timestamp` (unix seconds, default now).
 */
export function signWebhook(
  secret: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},v1=${mac(secret, timestamp, body)}`;
}

/**
 * What a receiver does: true when `header` carries a `v1` signature of `body` made with
 * `secret` whose timestamp is within `toleranceS` seconds (default 300) of `now` (unix s).
 * Compares in constant time.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string,
  body: string,
  toleranceS = 300,
  now = Math.floor(Date.now() / 1000),
): boolean {
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const [k, v] = item.split('=', 2);
    if (k && v) parts.set(k.trim(), [...(parts.get(k.trim()) ?? []), v.trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(now - t) > toleranceS) return false;
  const expected = Buffer.from(mac(secret, t, body), 'hex');
  return (parts.get('v1') ?? []).some((sig) => {
    const given = Buffer.from(sig, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
