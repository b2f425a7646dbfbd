/**
 * @aso/webhook: outgoing webhooks of watched listings: the address guard (only public
 * addresses), HMAC-SHA256 signing and the signed POST with a timeout.
 */
export * from './address.guard';
export * from './webhook.signature';
export * from './webhook.sender';
