import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZAudit } from '@aso/contracts';
import { findAudit } from '@aso/db';
import { renderJson, sendJson } from '../lib/json-answer';
import { CHART_CODINGS, compress, pickChartCoding } from './dataset.cache';
import type { TCachedAudit } from './read-caches';
import { toAudit } from '../services/audit.service';

const AUDIT_ROUTE = { method: 'GET', url: '/api/audit/:id' };

/**
 * The answer of `GET /api/audit/{id}` for whoever may read it (the caller checks the owner),
 * or null when there is no such audit. A finished audit's answer never changes (its result is
 * written once), so it is kept per process with its compressed forms; an admin deletion drops
 * it in every replica. Concurrent reads of one audit share one database read.
 */
export async function readAuditAnswer(
  app: FastifyInstance,
  auditId: string,
): Promise<TCachedAudit | null> {
  return app.readCaches.audits.read(
    auditId,
    async () => {
      const row = await findAudit(app.db, auditId);
      if (!row) return null;
      const finished = row.status === 'done' || row.status === 'failed';
      const json = renderJson(ZAudit, toAudit(row), AUDIT_ROUTE);
      const encoded: TCachedAudit['encoded'] = {};
      // Compressed once for the process's later reads (a browser always asks for it).
      if (finished) {
        const bytes = Buffer.from(json);
        for (const coding of CHART_CODINGS) encoded[coding] = await compress(bytes, coding);
      }
      return { userId: row.user_id, finished, json, encoded };
    },
    (a) => a.finished,
  );
}

/** Sends `answer` ({@link readAuditAnswer}) compressed as the request accepts when it can. */
export function sendAuditAnswer(
  req: FastifyRequest,
  reply: FastifyReply,
  answer: TCachedAudit,
): FastifyReply {
  if (!answer.finished) return sendJson(reply, answer.json);
  void reply.header('vary', 'accept-encoding');
  const coding = pickChartCoding(req.headers['accept-encoding']);
  const body = coding ? answer.encoded[coding] : undefined;
  if (!body) return sendJson(reply, answer.json);
  return sendJson(reply.header('content-encoding', coding), body);
}
