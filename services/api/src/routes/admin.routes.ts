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
  adminUsers,
  createAccessCode,
  deactivateCode,
  issueSignInCode,
} from '../services/access.service';
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
import { EVERY_KEY } from '../services/shared-read.cache';

/**
 * Admin calls (spec sections 6 and 7), under `/api/admin`. Every route first runs
 * `app.requireAdmin` as an `onRequest` hook, so a caller without a live admin code in
 * `x-access-code` gets 403 (429 after too many wrong codes) before any input is read.
 *
 * Reads: `GET /codes` (active codes, newest first), `/feedbacks`, `/audit-history` (latest
 * 500 each, newest first), `/audits` (summary grouped by app), `/cache` (cached apps),
 * `/store-health` (the store reader's drift alarm over the last 24 hours), `/users` (every
 * user, newest first, with created and last sign-in).
 * Writes: `POST /generate-code`, `DELETE /codes/{code}` (a code or an admin code's id:
 * deactivate, revoke its sessions), `POST /users/{id}/sign-in-code` (a new personal sign-in
 * code, answered once; 404 unknown),
 * `DELETE /cache/app/{appId}` (drop that app's snapshots), `DELETE /audits/{id}` (404 unknown).
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get('/codes', { schema: { response: { 200: z.array(ZAccessCode) } } }, async () =>
    activeAccessCodes(app.db),
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

  app.get('/users', { schema: { response: { 200: z.array(ZAdminUser) } } }, async () =>
    adminUsers(app.db),
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

  app.get('/feedbacks', { schema: { response: { 200: z.array(ZAdminFeedback) } } }, async () =>
    adminFeedbacks(app.db),
  );

  app.get(
    '/audit-history',
    { schema: { response: { 200: z.array(ZAuditHistoryItem) } } },
    async () => auditHistory(app.db),
  );

  app.get('/audits', { schema: { response: { 200: ZAdminAuditsSummary } } }, async () =>
    auditsSummary(app.db),
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

  app.get('/cache', { schema: { response: { 200: z.array(ZCachedApp) } } }, async () =>
    cachedApps(app.db),
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
