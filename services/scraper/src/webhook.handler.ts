import { findWebhookDelivery, listStrandedWebhookDeliveries, recordWebhookAttempt } from '@aso/db';
import { UnrecoverableError, type TJobHandler } from '@aso/queue';
import { postWebhook, WebhookAddressError } from '@aso/webhook';
import type { TWorkerDeps } from './worker.deps';

/**
 * Builds the `webhook-deliver` handler: POSTs the stored event of delivery `deliveryId` to its
 * user's webhook, signed with the user's secret (read from the database: secrets never travel
 * in job data), through the address guard (`WEBHOOK_ALLOW_LOOPBACK` for tests only), within
 * `WEBHOOK_TIMEOUT_MS`. Each attempt is recorded on the delivery; a failed one is retried by
 * BullMQ with the catalog's exponential backoff (6 attempts from 10 s), and the last marks
 * the delivery `failed`. A refused address, or a webhook removed meanwhile, fails at once.
 */
export function createWebhookDeliverHandler(deps: TWorkerDeps): TJobHandler<'webhook-deliver'> {
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

/** A delivery still pending this long after it was stored (ms) may have lost its job. */
const STRANDED_AFTER_MS = 60_000;
/** Deliveries queued again per call at most (the next watch round takes the rest). */
const STRANDED_BATCH = 500;

/**
 * Queues again, under their own ids, the deliveries still `pending` a minute after they were
 * stored: their job was lost (a Redis that came back empty) or never queued (Redis down at
 * the commit). BullMQ adds nothing for an id it still holds (waiting, delayed between retries,
 * or kept after the end), and the handler skips a delivery that is no longer pending, so no
 * event is sent twice. Run by every watch round. Returns how many were found.
 * @throws the database's or Redis's error (the round fails and runs again on schedule).
 */
export async function requeueStrandedDeliveries(
  deps: Pick<TWorkerDeps, 'db' | 'producers' | 'log'>,
): Promise<number> {
  const ids = await listStrandedWebhookDeliveries(deps.db, STRANDED_AFTER_MS, STRANDED_BATCH);
  await deps.producers.addMany(
    'webhook-deliver',
    ids.map((deliveryId) => ({ data: { deliveryId }, opts: { jobId: deliveryId } })),
  );
  if (ids.length > 0)
    deps.log.info({ pending: ids.length }, 'pending webhook deliveries queued again');
  return ids.length;
}
