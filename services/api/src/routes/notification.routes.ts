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
import { assertMaxChars, pageQuery, readPage } from '../lib/limits';
import { toNotification } from '../services/watch.service';
import {
  getWebhook,
  rotateWebhookSecret,
  sendTestEvent,
  setWebhook,
} from '../services/webhook.service';

/** Tests a user may send to their webhook per minute. */
const WEBHOOK_TEST_PER_MIN = 5;

/**
 * Alerts of watched listings (under `/api`, signed in, the caller's own only):
 * - `GET /notifications?limit=&cursor=`: a page of the notifications, newest first
 *   (docs/product.md#lists-and-pages), and the unread count of all;
 * - `GET /notifications/unread-count`: `{ unread }` (the sidebar's badge);
 * - `POST /notifications/read {ids?}`: marks those (or every unread one) read, answers
 *   `{ unread }`;
 * - `GET /webhook`: `{ webhook }` (null when none), with its latest deliveries;
 * - `PUT /webhook {url}`: sets the URL (400 when the address guard refuses it, 413 past
 *   `URL_MAX_CHARS`); a new webhook's signing secret is in this answer only;
 * - `POST /webhook/secret`: a new signing secret (in this answer only);
 *   both within the per-user write rate (`WRITE_RATE_LIMIT_PER_MIN`);
 * - `POST /webhook/test`: queues a signed `webhook.test` event (202 with the delivery);
 * - `DELETE /webhook`: removes the webhook and its deliveries (204; 404 when none).
 */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const testLimit = app.perUserRateLimit('webhook-test', WEBHOOK_TEST_PER_MIN);
  const writeLimit = app.perUserRateLimit('writes', app.config.WRITE_RATE_LIMIT_PER_MIN);
  const ZPageQuery = pageQuery(app.config);

  app.get(
    '/notifications',
    {
      preHandler: [app.requireUser, app.listReadSlot],
      schema: { querystring: ZPageQuery, response: { 200: ZNotificationList } },
    },
    async (req, reply) => {
      let unread = 0;
      const items = await readPage(req, reply, req.query, app.config, async (page) => {
        const read = await listNotifications(app.db, currentUser(req).userId, page);
        unread = read.unread;
        return read.page;
      });
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
    {
      preHandler: [app.requireUser, writeLimit],
      schema: { body: ZWebhookBody, response: { 200: ZWebhook } },
    },
    async (req) => {
      assertMaxChars({ url: req.body.url }, app.config.URL_MAX_CHARS, 'URL_MAX_CHARS');
      return setWebhook(
        {
          db: app.db,
          producers: app.producers,
          allowLoopback: app.config.WEBHOOK_ALLOW_LOOPBACK,
        },
        currentUser(req).userId,
        req.body.url,
      );
    },
  );

  app.post(
    '/webhook/secret',
    { preHandler: [app.requireUser, writeLimit], schema: { response: { 200: ZWebhook } } },
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
