import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The address guard of outgoing webhooks: a user-given URL must not make the server call
 * itself or its private network (SSRF). Only addresses ipaddr.js classes as `unicast` (public)
 * are allowed; loopback, private (RFC 1918), link-local (169.254/16, fe80::/10, cloud metadata),
 * unique-local (fc00::/7), carrier-grade NAT (100.64/10), unspecified, broadcast, multicast,
 * reserved, benchmarking and the IPv6 transition ranges are refused. An IPv4-mapped IPv6
 * address is judged as the IPv4 address it carries. The check is made on every address the
 * name resolves to, at set-up and again at each delivery through the connection's own `lookup`
 * (so a name that resolves elsewhere later, DNS rebinding, is refused too).
 */

/** Options of the guard. */
export interface TAddressGuardOptions {
  /**
   * Allow loopback addresses (127/8, ::1). Test-only (`WEBHOOK_ALLOW_LOOPBACK`): lets tests
   * deliver to a receiver on this machine. Every other refused range stays refused.
   */
  allowLoopback?: boolean;
}

/** A webhook URL or address the guard refuses; `message` is user-facing. */
export class WebhookAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookAddressError';
  }
}

/** Timeout of the DNS resolution of a webhook host (ms). */
const DNS_TIMEOUT_MS = 5_000;

/**
 * The ipaddr.js range name of `address` (`unicast` for a public address, `loopback`,
 * `private`, `linkLocal`, `uniqueLocal`, `carrierGradeNat`, ...); IPv4-mapped IPv6 addresses
 * are unwrapped first.
 *
 * @throws Error when `address` is not an IP address.
 */
export function addressRange(address: string): string {
  return ipaddr.process(address).range();
}

/** Whether a webhook may connect to `address` (see the module comment). */
export function isAllowedAddress(address: string, opts: TAddressGuardOptions = {}): boolean {
  if (isIP(address) === 0) return false;
  const range = addressRange(address);
  return range === 'unicast' || (range === 'loopback' && opts.allowLoopback === true);
}

/** Words for ipaddr.js range names in messages. */
const RANGE_LABELS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private network',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  carrierGradeNat: 'carrier-grade NAT',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  reserved: 'reserved',
};

function refusal(host: string, address: string): WebhookAddressError {
  const range = addressRange(address);
  return new WebhookAddressError(
    `url: ${host} resolves to ${address} (${RANGE_LABELS[range] ?? range}); webhooks may only be sent to public addresses`,
  );
}

/** Every address `host` resolves to (A and AAAA), within {@link DNS_TIMEOUT_MS}. */
async function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new WebhookAddressError(`url: ${host} did not resolve in time`)),
      DNS_TIMEOUT_MS,
    );
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err)
        reject(
          new WebhookAddressError(`url: ${host} does not resolve (${err.code ?? err.message})`),
        );
      else resolve(addresses);
    });
  });
}

/**
 * Checks a webhook URL: absolute `http:` or `https:`, no user name or password, and a host
 * whose every address (an IP literal, or what DNS resolves it to) is allowed. Returns the
 * parsed URL.
 *
 * @throws WebhookAddressError naming what is wrong ('url: ...').
 */
export async function checkWebhookUrl(raw: string, opts: TAddressGuardOptions = {}): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookAddressError('url: not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebhookAddressError('url: only http and https URLs are accepted');
  }
  if (url.username !== '' || url.password !== '') {
    throw new WebhookAddressError('url: a user name or password in the URL is not accepted');
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolveAll(host);
  if (addresses.length === 0) throw new WebhookAddressError(`url: ${host} does not resolve`);
  for (const { address } of addresses) {
    if (!isAllowedAddress(address, opts)) throw refusal(host, address);
  }
  return url;
}

/**
 * A `lookup` for `http.request` / `https.request` that resolves like `dns.lookup` and fails
 * the connection when any address of the host is refused, so the address connected to is the
 * one checked.
 */
export function guardedLookup(opts: TAddressGuardOptions = {}): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const refused = addresses.find((a) => !isAllowedAddress(a.address, opts));
      if (refused) return callback(refusal(hostname, refused.address), '', 4);
      if (options.all) return callback(null, addresses, 4);
      const first = addresses[0];
      if (!first)
        return callback(new WebhookAddressError(`url: ${hostname} does not resolve`), '', 4);
      return callback(null, first.address, first.family);
    });
  };
}
