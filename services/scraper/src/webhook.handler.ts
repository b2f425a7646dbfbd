import { findWebhookDelivery, recordWebhookAttempt } from '@aso/db';
import { UnrecoverableError, type JobHandler } from '@aso/queue';
import { postWebhook, WebhookAddressError } from '@aso/webhook';
import type { WorkerDeps } from './worker.deps';

/**
 * Builds the `webhook-deliver` handler: POSTs the stored event of delivery `deliveryId` to its
 * user's webhook, signed with the user's secret (read from the database: secrets never travel
 * in job data), through the address guard (`WEBHOOK_ALLOW_LOOPBACK` for tests only), within
 * `WEBHOOK_TIMEOUT_MS`. Each attempt is recorded on the delivery; a failed one is retried by
 * BullMQ with the catalog's exponential backoff (6 attempts from 10 s), and the last marks
 * the delivery `failed`. A refused address, or a webhook removed meanwhile, fails at once.
 */
export function createWebhookDeliverHandler(deps: WorkerDeps): JobHandler<'webhook-deliver'> {
  return async (data, job) => {
    const found = await findWebhookDelivery(deps.db, data.deliveryId);
    if (!found || found.delivery.status !== 'pending') return { skipped: 'not pending' };
    const { delivery, webhook } = found;
    if (!webhook) {
      await recordWebhookAttempt(deps.db, delivery.id, {
        status: 'failed',
        error: 'The webhook was removed',
      });
      return { skipped: 'webhook removed' };
    }
    const event = delivery.event as { type?: string };
    let status: number;
    try {
      status = await postWebhook({
        url: webhook.url,
        body: JSON.stringify(delivery.event),
        secret: webhook.secret,
        eventType: event.type ?? 'listing.changed',
        deliveryId: delivery.id,
        timeoutMs: deps.env.WEBHOOK_TIMEOUT_MS,
        allowLoopback: deps.env.WEBHOOK_ALLOW_LOOPBACK,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const refused = error instanceof WebhookAddressError;
      const final = refused || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      await recordWebhookAttempt(deps.db, delivery.id, {
        status: final ? 'failed' : 'pending',
        error: message,
      });
      deps.log.warn(
        { deliveryId: delivery.id, attempt: job.attemptsMade + 1, final, reason: message },
        'webhook delivery failed',
      );
      if (refused) throw new UnrecoverableError(message);
      throw error;
    }
    await recordWebhookAttempt(deps.db, delivery.id, { status: 'delivered', error: null });
    return { status };
  };
}
