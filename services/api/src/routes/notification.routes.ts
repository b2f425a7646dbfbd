import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZNotificationList,
  ZNotificationsReadBody,
  ZUnreadCount,
  ZWebhook,
  ZWebhookAnswer,
  ZWebhookBody,
  ZWebhookDelivery,
} from '@aso/contracts';
import {
  countUnreadNotifications,
  deleteWebhook,
  listNotifications,
  markNotificationsRead,
} from '@aso/db';
import { currentUser } from '../plugins/auth.plugin';
import { notFound } from '../lib/app-error';
import { toNotification } from '../services/watch.service';
import {
  getWebhook,
  rotateWebhookSecret,
  sendTestEvent,
  setWebhook,
} from '../services/webhook.service';

const ZListQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

/** Tests a user may send to their webhook per minute. */
const WEBHOOK_TEST_PER_MIN = 5;

/**
 * Alerts of watched listings (under `/api`, signed in, the caller's own only):
 * - `GET /notifications?limit=`: the newest notifications (default 50) and the unread count;
 * - `GET /notifications/unread-count`: `{ unread }` (the sidebar's badge);
 * - `POST /notifications/read {ids?}`: marks those (or every unread one) read, answers
 *   `{ unread }`;
 * - `GET /webhook`: `{ webhook }` (null when none), with its latest deliveries;
 * - `PUT /webhook {url}`: sets the URL (400 when the address guard refuses it); a new webhook's
 *   signing secret is in this answer only;
 * - `POST /webhook/secret`: a new signing secret (in this answer only);
 * - `POST /webhook/test`: queues a signed `webhook.test` event (202 with the delivery);
 * - `DELETE /webhook`: removes the webhook and its deliveries (204; 404 when none).
 */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const testLimit = app.perUserRateLimit('webhook-test', WEBHOOK_TEST_PER_MIN);

  app.get(
    '/notifications',
    {
      preHandler: app.requireUser,
      schema: { querystring: ZListQuery, response: { 200: ZNotificationList } },
    },
    async (req) => {
      const { items, unread } = await listNotifications(
        app.db,
        currentUser(req).userId,
        req.query.limit,
      );
      return { items: items.map(toNotification), unread };
    },
  );

  app.get(
    '/notifications/unread-count',
    { preHandler: app.requireUser, schema: { response: { 200: ZUnreadCount } } },
    async (req) => ({ unread: await countUnreadNotifications(app.db, currentUser(req).userId) }),
  );

  app.post(
    '/notifications/read',
    {
      preHandler: app.requireUser,
      schema: { body: ZNotificationsReadBody, response: { 200: ZUnreadCount } },
    },
    async (req) => {
      const userId = currentUser(req).userId;
      await markNotificationsRead(app.db, userId, req.body.ids);
      return { unread: await countUnreadNotifications(app.db, userId) };
    },
  );

  app.get(
    '/webhook',
    { preHandler: app.requireUser, schema: { response: { 200: ZWebhookAnswer } } },
    async (req) => ({ webhook: await getWebhook(app.db, currentUser(req).userId) }),
  );

  app.put(
    '/webhook',
    { preHandler: app.requireUser, schema: { body: ZWebhookBody, response: { 200: ZWebhook } } },
    async (req) =>
      setWebhook(
        {
          db: app.db,
          producers: app.producers,
          allowLoopback: app.config.WEBHOOK_ALLOW_LOOPBACK,
        },
        currentUser(req).userId,
        req.body.url,
      ),
  );

  app.post(
    '/webhook/secret',
    { preHandler: app.requireUser, schema: { response: { 200: ZWebhook } } },
    async (req) => rotateWebhookSecret(app.db, currentUser(req).userId),
  );

  app.post(
    '/webhook/test',
    { preHandler: app.requireUser, schema: { response: { 202: ZWebhookDelivery } } },
    async (req, reply) => {
      await testLimit(req);
      const delivery = await sendTestEvent(
        { db: app.db, producers: app.producers },
        currentUser(req).userId,
      );
      return reply.code(202).send(delivery);
    },
  );

  app.delete('/webhook', { preHandler: app.requireUser }, async (req, reply) => {
    if (!(await deleteWebhook(app.db, currentUser(req).userId))) {
      throw notFound('No webhook is set');
    }
    return reply.code(204).send();
  });
};
