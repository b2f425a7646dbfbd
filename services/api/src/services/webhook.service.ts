import { randomUUID } from 'node:crypto';
import type { TWebhook, TWebhookDelivery, TWebhookEvent } from '@aso/contracts';
import {
  findWebhook,
  insertWebhookDelivery,
  listWebhookDeliveries,
  upsertWebhook,
  type TDb,
  type TWebhookDeliveryRow,
  type TWebhookRow,
} from '@aso/db';
import type { Producers } from '@aso/queue';
import { checkWebhookUrl, newWebhookSecret, WebhookAddressError } from '@aso/webhook';
import { AppError, badRequest, notFound } from '../lib/app-error';

/** What the webhook calls use. */
export interface TWebhookDeps {
  db: TDb;
  producers: Producers;
  /** `WEBHOOK_ALLOW_LOOPBACK` (test only). */
  allowLoopback: boolean;
}

function toDelivery(row: TWebhookDeliveryRow): TWebhookDelivery {
  return {
    id: row.id,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    deliveredAt: row.delivered_at ? row.delivered_at.toISOString() : null,
  };
}

/** The last four characters of a secret, as the screen shows it ('…abcd'). */
const hint = (secret: string) => `…${secret.slice(-4)}`;

async function toWebhook(db: TDb, row: TWebhookRow, showSecret: boolean): Promise<TWebhook> {
  const deliveries = await listWebhookDeliveries(db, row.user_id);
  return {
    url: row.url,
    secretHint: hint(row.secret),
    ...(showSecret ? { secret: row.secret } : {}),
    createdAt: row.created_at.toISOString(),
    deliveries: deliveries.map(toDelivery),
  };
}

/** The user's webhook with its latest deliveries (never its secret), or null. */
export async function getWebhook(db: TDb, userId: string): Promise<TWebhook | null> {
  const row = await findWebhook(db, userId);
  return row ? toWebhook(db, row, false) : null;
}

/**
 * Sets the user's webhook URL after the address guard (http or https; every address the host
 * resolves to public). A new webhook gets a signing secret, shown in this answer only; a
 * changed URL keeps the secret.
 *
 * @throws AppError 400 naming why the URL is refused ('url: ...').
 */
export async function setWebhook(
  deps: TWebhookDeps,
  userId: string,
  url: string,
): Promise<TWebhook> {
  try {
    await checkWebhookUrl(url, { allowLoopback: deps.allowLoopback });
  } catch (err) {
    if (err instanceof WebhookAddressError) throw badRequest(err.message);
    throw err;
  }
  const { webhook, secretIsNew } = await upsertWebhook(deps.db, userId, url, newWebhookSecret());
  return toWebhook(deps.db, webhook, secretIsNew);
}

/**
 * Gives the user's webhook a new signing secret, shown in this answer only.
 *
 * @throws AppError 404 when the user has no webhook.
 */
export async function rotateWebhookSecret(db: TDb, userId: string): Promise<TWebhook> {
  const row = await findWebhook(db, userId);
  if (!row) throw notFound('No webhook is set');
  const { webhook } = await upsertWebhook(db, userId, row.url, newWebhookSecret(), true);
  return toWebhook(db, webhook, true);
}

/**
 * Queues a `webhook.test` event to the user's webhook (signed and retried like any event).
 *
 * @throws AppError 404 when the user has no webhook; 503 when Redis refuses the job.
 */
export async function sendTestEvent(
  deps: Pick<TWebhookDeps, 'db' | 'producers'>,
  userId: string,
): Promise<TWebhookDelivery> {
  if (!(await findWebhook(deps.db, userId))) throw notFound('No webhook is set');
  const event: TWebhookEvent = {
    id: randomUUID(),
    type: 'webhook.test',
    createdAt: new Date().toISOString(),
    app: null,
    detectedAt: null,
    changes: [],
  };
  const id = await insertWebhookDelivery(deps.db, userId, event);
  try {
    await deps.producers.add('webhook-deliver', { deliveryId: id }, { jobId: id });
  } catch (err) {
    throw new AppError('SERVICE_UNAVAILABLE', 'The test could not be queued; try again shortly', {
      cause: err,
    });
  }
  const [latest] = await listWebhookDeliveries(deps.db, userId, 1);
  return toDelivery(latest!);
}
