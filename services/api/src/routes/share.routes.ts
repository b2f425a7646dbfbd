import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SHARE_TOKEN_PREFIX_CHARS,
  ZAudit,
  ZShareCreateBody,
  ZShareCreated,
  ZShareList,
  ZText,
  type TShareLink,
} from '@aso/contracts';
import {
  deleteShareLink,
  findOwnedAudit,
  insertShareLink,
  listShareLinks,
  type TShareLinkRow,
} from '@aso/db';
import { AppError, notFound } from '../lib/app-error';
import { pageQuery, readPage } from '../lib/limits';
import { currentUser } from '../plugins/auth.plugin';
import { readAuditAnswer, sendAuditAnswer } from '../caches/audit-answer.cache';
import {
  hashShareToken,
  liveShareLink,
  markShared,
  SHARE_NOT_FOUND,
  ZShareToken,
} from '../services/share.service';

/** Random bytes of a share token: 256 bits, well past the 128 an unguessable link needs. */
const TOKEN_BYTES = 32;
const ZUuid = z.uuid();
const ZTokenParams = z.object({ token: ZShareToken });
/** `DELETE /api/shares/{token}` takes the token or the link's id (the list's `id`). */
const ZTokenOrIdParams = z.object({ token: z.union([ZUuid, ZShareToken]) });
const ZAuditIdParams = z.object({ id: ZText.min(1).max(64) });

const DAY_MS = 86_400_000;

function listed(row: TShareLinkRow & { app_name: string | null }): TShareLink {
  return {
    id: row.id,
    prefix: row.token_prefix,
    auditId: row.audit_id,
    appName: row.app_name,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
  };
}

/**
 * Share links (under `/api`): read-only links to one audit that open without an account.
 * - `POST /audit/{id}/shares {expiresInDays?}` (owner, within the per-user write rate): 201
 *   `{token, url, link}`; 404 for an audit that is not the caller's; 409 while it has not
 *   finished; 409 past `SHARE_LINKS_MAX_PER_USER` live links;
 * - `GET /shares?limit=&cursor=[&auditId=]` (signed in): a page of the caller's live links
 *   (to one audit with `auditId`), newest first (docs/product.md#lists-and-pages), with how
 *   many live links the caller has in all and the limit;
 * - `DELETE /shares/{token or id}` (owner): 204; revoked links answer 404 on every replica at
 *   once (the link cache is dropped through the invalidation channel before the answer);
 * - `GET /shared/{token}` (no session): the audit as `GET /audit/{id}` answers it;
 * - `GET /shared/{token}/report.pdf` (no session): its PDF (the owner's stored document).
 * Unknown, revoked and expired tokens all answer 404. Shared answers carry
 * `X-Robots-Tag: noindex` and set no cookie.
 */
export const shareRoutes: FastifyPluginAsyncZod = async (app) => {
  const max = app.config.SHARE_LINKS_MAX_PER_USER;
  const writeLimit = app.perUserRateLimit('writes', app.config.WRITE_RATE_LIMIT_PER_MIN);
  const ZListQuery = pageQuery(app.config).extend({
    auditId: z.uuid('auditId is not an audit id').optional(),
  });

  app.post(
    '/audit/:id/shares',
    {
      preHandler: [app.requireUser, writeLimit],
      schema: { params: ZAuditIdParams, body: ZShareCreateBody, response: { 201: ZShareCreated } },
    },
    async (req, reply) => {
      const { userId } = currentUser(req);
      const audit = await findOwnedAudit(app.db, req.params.id, userId);
      if (!audit) throw notFound('Audit not found');
      if (audit.status !== 'done')
        throw new AppError('CONFLICT', 'Only a finished audit can be shared');
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const days = req.body.expiresInDays ?? null;
      const row = await insertShareLink(
        app.db,
        {
          userId,
          auditId: audit.id,
          tokenHash: hashShareToken(token),
          tokenPrefix: token.slice(0, SHARE_TOKEN_PREFIX_CHARS),
          expiresAt: days === null ? null : new Date(Date.now() + days * DAY_MS),
        },
        max,
      );
      if (row === 'limit')
        throw new AppError(
          'CONFLICT',
          `You have reached the limit of ${max} share links (SHARE_LINKS_MAX_PER_USER): revoke one to share again`,
        );
      req.log.info({ auditId: audit.id, shareId: row.id }, 'share link created');
      return reply.code(201).send({
        token,
        url: `${req.protocol}://${req.host}/s/${token}`,
        link: listed({ ...row, app_name: audit.app_name }),
      });
    },
  );

  app.get(
    '/shares',
    {
      preHandler: [app.requireUser, app.listReadSlot],
      schema: { querystring: ZListQuery, response: { 200: ZShareList } },
    },
    async (req, reply) => {
      let total = 0;
      const items = await readPage(req, reply, req.query, app.config, async (page) => {
        const read = await listShareLinks(app.db, currentUser(req).userId, page, req.query.auditId);
        total = read.total;
        return read.page;
      });
      return { items: items.map(listed), total, max };
    },
  );

  app.delete(
    '/shares/:token',
    { preHandler: app.requireUser, schema: { params: ZTokenOrIdParams } },
    async (req, reply) => {
      const { userId } = currentUser(req);
      const key = req.params.token;
      const tokenHash = await deleteShareLink(
        app.db,
        userId,
        ZUuid.safeParse(key).success ? { id: key } : { tokenHash: hashShareToken(key) },
      );
      if (!tokenHash) throw notFound(SHARE_NOT_FOUND);
      await app.readCaches.shareLinks.drop(tokenHash);
      req.log.info({ userId }, 'share link revoked');
      return reply.code(204).send();
    },
  );

  app.get(
    '/shared/:token',
    { schema: { params: ZTokenParams, response: { 200: ZAudit } } },
    async (req, reply) => {
      markShared(reply);
      const link = await liveShareLink(app, req.params.token);
      const answer = await readAuditAnswer(app, link.auditId);
      if (!answer || answer.userId !== link.userId) throw notFound(SHARE_NOT_FOUND);
      return sendAuditAnswer(req, reply, answer);
    },
  );
};
