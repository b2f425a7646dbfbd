import http from 'node:http';
import https from 'node:https';
import { checkWebhookUrl, guardedLookup, type TAddressGuardOptions } from './address.guard';
import { SIGNATURE_HEADER, signWebhook } from './webhook.signature';

/** What {@link postWebhook} sends. */
export interface TWebhookPost extends TAddressGuardOptions {
  url: string;
  /** The JSON body, exactly as sent and signed. */
  body: string;
  secret: string;
  /** The event's type and id, sent as `X-Aso-Event` and `X-Aso-Delivery`. */
  eventType: string;
  deliveryId: string;
  /** Timeout of the whole request, connection to the end of the answer (ms). */
  timeoutMs: number;
}

/** A delivery the receiver did not accept; `message` is shown with the delivery. */
export class WebhookDeliveryError extends Error {
  constructor(
    message: string,
    /** The receiver's HTTP status, when it answered. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'WebhookDeliveryError';
  }
}

/** Bytes of the receiver's answer read at most (the rest is dropped). */
const MAX_ANSWER_BYTES = 16 * 1024;

/**
 * POSTs a signed JSON webhook (`content-type: application/json`, `X-Aso-Signature`, see
 * webhook.signature) to `url` through the address guard: the URL is checked (scheme, host's
 * addresses) and the connection resolves the host again with the guard, so only a public
 * address is ever connected to. Redirects are not followed. Resolves with the status of a 2xx
 * answer.
 *
 * @throws WebhookAddressError when the address is refused; WebhookDeliveryError for a non-2xx
 *   answer (with its status), a timeout or a network error.
 */
export async function postWebhook(post: TWebhookPost): Promise<number> {
  const url = await checkWebhookUrl(post.url, post);
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<number>((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(post),
        signal: AbortSignal.timeout(post.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(post.body),
          'user-agent': 'aso-webhook/1',
          'x-aso-event': post.eventType,
          'x-aso-delivery': post.deliveryId,
          [SIGNATURE_HEADER]: signWebhook(post.secret, post.body),
        },
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(status);
          else reject(new WebhookDeliveryError(`The webhook answered HTTP ${status}`, status));
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', () => undefined);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.name === 'WebhookAddressError') return reject(err);
      const reason =
        err.name === 'TimeoutError' || err.name === 'AbortError'
          ? `no answer within ${post.timeoutMs} ms`
          : (err.code ?? err.message);
      reject(new WebhookDeliveryError(`The webhook could not be reached: ${reason}`));
    });
    req.end(post.body);
  });
}
