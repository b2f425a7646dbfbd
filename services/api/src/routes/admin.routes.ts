import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAccessCode,
  ZAdminAuditParams,
  ZAdminAuditsSummary,
  ZAdminCacheAppParams,
  ZAdminCodeParams,
  ZAdminFeedback,
  ZAdminUser,
  ZAdminUserParams,
  ZAuditHistoryItem,
  ZCachedApp,
  ZClearCacheAnswer,
  ZDeactivateCodeAnswer,
  ZDeleteAuditAnswer,
  ZGenerateCodeAnswer,
  ZGenerateCodeBody,
  ZIssueSignInCodeAnswer,
  ZStoreHealth,
} from '@aso/contracts';
import {
  activeAccessCodes,
  createAccessCode,
  deactivateCode,
} from '../services/access-codes.service';
import { adminUsers, issueSignInCode } from '../services/user.service';
import {
  adminFeedbacks,
  auditHistory,
  auditsSummary,
  cachedApps,
  clearAppCache,
  removeAudit,
  storeHealth,
} from '../services/admin.service';
import { CACHE_SCOPES } from '@aso/queue';
import { pageQuery, readPage } from '../lib/limits';
import { EVERY_KEY } from '../caches/shared-read.cache';

/** A cached app's page key: `appId:storefront` (see listCachedApps). */
const isCacheKey = (id: string) => /^\d{1,20}:[a-z]{2}$/.test(id);

/**
 * Admin calls (docs/product.md#roles-and-permissions and #api-calls), under `/api/admin`. Every
 * route first runs `app.requireAdmin` as an `onRequest` hook, so a caller without a live admin code
 * in `x-access-code` gets 403 (429 after too many wrong codes) before any input is read.
 *
 * Reads, each list paged with `?limit=&cursor=` (docs/product.md#lists-and-pages): `GET /codes`
 * (active codes, newest first), `/feedbacks`, `/audit-history` (newest first), `/cache`
 * (cached apps, most recently read first), `/users` (newest first, with created, last sign-in,
 * stored bytes and sign-in lock-outs); `/audits` (the screen's counts and the latest audited
 * apps, bounded), `/store-health` (the store reader's drift alarm over the last 24 hours).
 * Writes: `POST /generate-code`, `DELETE /codes/{code}` (a code or an admin code's id:
 * deactivate, revoke its sessions), `POST /users/{id}/sign-in-code` (a new personal sign-in
 * code, answered once; 404 unknown),
 * `DELETE /cache/app/{appId}` (drop that app's snapshots), `DELETE /audits/{id}` (404 unknown).
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.requireAdmin);
  const ZPageQuery = pageQuery(app.config);
  const list = <T extends z.ZodType>(item: T) => ({
    preHandler: app.listReadSlot,
    schema: { querystring: ZPageQuery, response: { 200: z.array(item) } },
  });

  app.get('/codes', list(ZAccessCode), async (req, reply) =>
    readPage(req, reply, req.query, app.config, (page) => activeAccessCodes(app.db, page)),
  );

  app.post(
    '/generate-code',
    { schema: { body: ZGenerateCodeBody, response: { 200: ZGenerateCodeAnswer } } },
    async (req) => ({
      code: await createAccessCode(app.db, {
        maxUses: req.body.maxUses,
        expiresInDays: req.body.expiresIn,
      }),
    }),
  );

  app.delete(
    '/codes/:code',
    { schema: { params: ZAdminCodeParams, response: { 200: ZDeactivateCodeAnswer } } },
    async (req) => {
      const done = await deactivateCode(app.db, req.params.code, req.adminCode?.id ?? null);
      // Every replica forgets the code's sessions before the answer: they stop working at once.
      await app.cacheBus.publish(CACHE_SCOPES.accessCode, done.code.id);
      return { success: true as const, ...done };
    },
  );

  app.get('/users', list(ZAdminUser), async (req, reply) =>
    readPage(req, reply, req.query, app.config, (page) => adminUsers(app.db, page)),
  );

  app.post(
    '/users/:id/sign-in-code',
    { schema: { params: ZAdminUserParams, response: { 200: ZIssueSignInCodeAnswer } } },
    async (req) => {
      const issued = await issueSignInCode(app.db, req.params.id);
      req.log.info({ userId: issued.user.id }, 'personal sign-in code issued by an admin');
      return issued;
    },
  );

  app.get('/feedbacks', list(ZAdminFeedback), async (req, reply) =>
    readPage(req, reply, req.query, app.config, (page) => adminFeedbacks(app.db, page)),
  );

  app.get('/audit-history', list(ZAuditHistoryItem), async (req, reply) =>
    readPage(req, reply, req.query, app.config, (page) => auditHistory(app.db, page)),
  );

  app.get(
    '/audits',
    { preHandler: app.listReadSlot, schema: { response: { 200: ZAdminAuditsSummary } } },
    async () => auditsSummary(app.db),
  );

  app.delete(
    '/audits/:id',
    { schema: { params: ZAdminAuditParams, response: { 200: ZDeleteAuditAnswer } } },
    async (req) => {
      const answer = await removeAudit(app.db, req.params.id);
      // Its answer and the saved entries of it (in any user's list) go in every replica.
      await app.readCaches.audits.drop(answer.deletedAudit.id);
      await app.readCaches.savedAudits.drop(EVERY_KEY);
      return answer;
    },
  );

  app.get('/cache', list(ZCachedApp), async (req, reply) =>
    readPage(req, reply, req.query, app.config, (page) => cachedApps(app.db, page), isCacheKey),
  );

  app.get('/store-health', { schema: { response: { 200: ZStoreHealth } } }, async () =>
    storeHealth(app.db),
  );

  app.delete(
    '/cache/app/:appId',
    { schema: { params: ZAdminCacheAppParams, response: { 200: ZClearCacheAnswer } } },
    async (req) => clearAppCache(app.db, req.params.appId),
  );
};
