import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { findDashboard, findDocument, findOwnedAudit, type Db, type DocumentRow } from '@aso/db';
import { renderJobId, type JobWaiter, type Producers, type TRenderPdfJob } from '@aso/queue';
import { AppError, notFound } from '../lib/app-error';
import { toAudit } from './audit.service';
import { toDashboard } from './analytics.service';

/**
 * Bumped when the print pages change what they show, so PDFs rendered before are rendered
 * again instead of served stale.
 */
export const PRINT_LAYOUT_VERSION = '1';

/** Answer when the render does not finish within `RENDER_WAIT_MS`. */
export const RENDER_TIMEOUT_MESSAGE = 'Preparing the PDF took too long; please try again';
/** Answer when the render failed. */
export const RENDER_FAILED_MESSAGE = 'The PDF could not be prepared; please try again';

/** Fingerprint (hex SHA-256, 32 digits) of what a PDF is rendered from. */
export function subjectVersion(subject: unknown): string {
  return createHash('sha256')
    .update(PRINT_LAYOUT_VERSION)
    .update('\0')
    .update(JSON.stringify(subject))
    .digest('hex')
    .slice(0, 32);
}

/** What {@link reportPdf} uses. */
export interface ReportPdfDeps {
  db: Db;
  producers: Producers;
  waiter: JobWaiter;
  log: FastifyBaseLogger;
  /** `RENDER_WAIT_MS`. */
  waitMs: number;
}

/**
 * The fingerprint of `userId`'s audit or dashboard `subjectId` as it is now: the audit as
 * `GET /api/audit/{id}` answers it; the dashboard with its saved view. A change of either
 * (a finished audit, a new result) changes it.
 *
 * @throws AppError 404 when the subject is not the caller's (or does not exist); 409 for an
 *   audit that has not finished.
 */
export async function currentVersion(
  db: Db,
  key: Pick<TRenderPdfJob, 'kind' | 'subjectId' | 'userId'>,
): Promise<string> {
  if (key.kind === 'audit') {
    const row = await findOwnedAudit(db, key.subjectId, key.userId);
    if (!row) throw notFound('Audit not found');
    if (row.status !== 'done')
      throw new AppError('CONFLICT', 'The audit has not finished; its PDF is ready once it has');
    return subjectVersion(toAudit(row));
  }
  const row = await findDashboard(db, key.subjectId, key.userId);
  if (!row) throw notFound('Dashboard not found');
  return subjectVersion(toDashboard(row));
}

/**
 * The PDF of `userId`'s audit or dashboard (the report of `GET /api/audit/{id}/report.pdf` and
 * `GET /api/dashboards/{id}/report.pdf`): the stored one when it was rendered from the subject
 * as it is now, else a `render-pdf` job on the `render` queue (one per version: concurrent
 * requests share it) waited for up to `waitMs`, then the PDF it stored.
 *
 * @throws AppError 404 / 409 (see {@link currentVersion}); 504 past `waitMs`; 500 when the
 *   render failed; 503 when Redis cannot take the job.
 */
export async function reportPdf(
  deps: ReportPdfDeps,
  key: Pick<TRenderPdfJob, 'kind' | 'subjectId' | 'userId'>,
): Promise<DocumentRow> {
  const version = await currentVersion(deps.db, key);
  const stored = await findDocument(deps.db, key);
  if (stored?.version === version) return stored;

  const data: TRenderPdfJob = { ...key, version };
  const enqueue = () => deps.producers.add('render-pdf', data, { jobId: renderJobId(data) });
  let job;
  try {
    job = await enqueue();
  } catch (err) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'The service is temporarily unavailable. Please try again shortly.',
      { cause: err },
    );
  }
  // A Redis restart loses the job: it is queued again unless its PDF was stored meanwhile (a
  // finished render's job is removed at once, and its completion is on its way).
  const outcome = await deps.waiter.wait(job, deps.waitMs, {
    requeue: async () => {
      if ((await findDocument(deps.db, key))?.version === version) return;
      await enqueue();
      deps.log.warn({ jobId: job.id }, 'render job lost by Redis; queued again');
    },
  });
  if (outcome.status === 'timeout') {
    deps.log.warn({ jobId: job.id, state: outcome.state }, 'pdf render wait timed out');
    throw new AppError('GATEWAY_TIMEOUT', RENDER_TIMEOUT_MESSAGE);
  }
  if (outcome.status === 'failed') {
    deps.log.error({ jobId: job.id, reason: outcome.reason }, 'pdf render failed');
    throw new AppError('INTERNAL', RENDER_FAILED_MESSAGE);
  }
  const rendered = await findDocument(deps.db, key);
  if (!rendered) throw new AppError('INTERNAL', RENDER_FAILED_MESSAGE);
  return rendered;
}
