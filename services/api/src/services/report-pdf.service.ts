import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  ascFiguresStamp,
  findDashboard,
  findDocument,
  findOwnedAudit,
  type TDb,
  type TDocumentRow,
} from '@aso/db';
import type { TReportPdfStatus } from '@aso/contracts';
import {
  claimRenderTurn,
  handOnRenderTurn,
  queuedBehind,
  renderJobId,
  renderPlace,
  repairRenderTurn,
  withdrawFromRenderLine,
  type JobWaiter,
  type Producers,
  type TRedisClient,
  type TRenderPdfJob,
} from '@aso/queue';
import { AppError, notFound } from '../lib/app-error';
import { toAudit } from './audit.service';
import { ascDashboardNaming, toDashboard } from './analytics.service';

/**
 * Bumped when the print pages change what they show, so PDFs rendered before are rendered
 * again instead of served stale.
 */
export const PRINT_LAYOUT_VERSION = '1';

/** Answer when the render does not finish within `RENDER_WAIT_MS`. */
export const RENDER_TIMEOUT_MESSAGE = 'Preparing the PDF took too long; please try again';
/** How often a request whose render waits in its user's line checks its place (ms). */
export const LINE_CHECK_MS = 500;

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
export interface TReportPdfDeps {
  db: TDb;
  producers: Producers;
  waiter: JobWaiter;
  log: FastifyBaseLogger;
  /** `RENDER_WAIT_MS`. */
  waitMs: number;
  /** Command connection (the producers' one): the users' render lines. */
  redis: TRedisClient;
  /** `RENDER_QUEUE_MAX_PER_USER`: renders a user may have asked for at once. */
  maxPerUser: number;
  /** Aborted when the server closes: a request waiting in a line stops waiting (503). */
  closing?: AbortSignal;
}

/** 503 for a Redis that does not answer. */
const unavailable = (cause: unknown) =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'The service is temporarily unavailable. Please try again shortly.',
    { cause },
  );

/** The 504 of a render not ready within `RENDER_WAIT_MS`. */
const tooLong = () => new AppError('GATEWAY_TIMEOUT', RENDER_TIMEOUT_MESSAGE);

/** True when the PDF of `data`'s version is stored. */
async function isStored(db: TDb, data: TRenderPdfJob): Promise<boolean> {
  return (await findDocument(db, data))?.version === data.version;
}

/**
 * Waits until render `data` has its user's turn (docs/product.md#pdf-reports): answers `run`
 * once it has (its job is then to be added), `stored` when its PDF got stored meanwhile (the
 * same version asked through another request). While it waits in the line it checks every
 * {@link LINE_CHECK_MS} that the user's current render is on its way ({@link repairRenderTurn}).
 * A request that gives up at `deadline` (or when the server closes) takes its render out of
 * the line.
 *
 * @throws AppError 429 when the user's line is full; 504 at `deadline`; 503 when Redis does
 *   not answer or the server closes.
 */
async function waitForTurn(
  deps: TReportPdfDeps,
  data: TRenderPdfJob,
  deadline: number,
): Promise<'run' | 'stored'> {
  const prefix = deps.producers.prefix;
  for (;;) {
    const claim = await claimRenderTurn(deps.redis, prefix, data, deps.maxPerUser - 1).catch(
      (err: unknown) => {
        throw unavailable(err);
      },
    );
    if (claim.status === 'run') return 'run';
    if (claim.status === 'full') {
      throw new AppError(
        'RATE_LIMITED',
        `${claim.lined + 1} of your PDFs are being prepared, the most at once ` +
          `(RENDER_QUEUE_MAX_PER_USER ${deps.maxPerUser}); download one of them first, ` +
          'then ask for this one again',
        { retryAfter: 10 },
      );
    }
    if (Date.now() >= deadline || deps.closing?.aborted) {
      await withdrawFromRenderLine(deps.redis, prefix, data).catch(() => undefined);
      throw deps.closing?.aborted ? unavailable(deps.closing.reason) : tooLong();
    }
    await repairRenderTurn(deps.producers, deps.redis, data.userId, (d) =>
      isStored(deps.db, d),
    ).catch((err: unknown) => deps.log.debug({ err }, 'render line check failed'));
    await new Promise((resolve) => setTimeout(resolve, LINE_CHECK_MS));
    if (await isStored(deps.db, data)) return 'stored';
  }
}

/**
 * The fingerprint of `userId`'s audit or dashboard `subjectId` as it is now: the audit as
 * `GET /api/audit/{id}` answers it; the dashboard with its saved view, and for one on
 * imported App Store Connect figures the state of those figures (instances stored, the last
 * one's time). A change of any (a finished audit, a new result, a new import) changes it.
 *
 * @throws AppError 404 when the subject is not the caller's (or does not exist), or the
 *   connection of a dashboard on imported figures is gone; 409 for an audit that has not
 *   finished.
 */
export async function currentVersion(
  db: TDb,
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
  const dashboard = toDashboard(row);
  const config = dashboard.configJson;
  if (config.createdFrom === 'csv_upload') return subjectVersion(dashboard);
  // Imported figures change with every import: the PDF is rendered again after one.
  await ascDashboardNaming(db, key.userId, config);
  return subjectVersion({
    dashboard,
    figures: await ascFiguresStamp(db, config.connectionId, config.appId),
  });
}

/**
 * The PDF of `userId`'s audit or dashboard (the report of `GET /api/audit/{id}/report.pdf` and
 * `GET /api/dashboards/{id}/report.pdf`): the stored one when it was rendered from the subject
 * as it is now, else a render of this version (one per version: concurrent requests share
 * it), waited for up to `waitMs`, then the PDF it stored. Renders take turns per user
 * (docs/product.md#pdf-reports): a user's render is queued on the `render` queue once their
 * previous one ended; until then it waits in the user's line.
 *
 * @throws AppError 404 / 409 (see {@link currentVersion}); 429 when the user has
 *   `maxPerUser` renders asked for already; 504 past `waitMs`; 500 when the render failed;
 *   503 when Redis cannot take the job.
 */
export async function reportPdf(
  deps: TReportPdfDeps,
  key: Pick<TRenderPdfJob, 'kind' | 'subjectId' | 'userId'>,
): Promise<TDocumentRow> {
  const deadline = Date.now() + deps.waitMs;
  const version = await currentVersion(deps.db, key);
  const stored = await findDocument(deps.db, key);
  if (stored?.version === version) return stored;

  const data: TRenderPdfJob = { ...key, version };
  if ((await waitForTurn(deps, data, deadline)) === 'run') await renderInTurn(deps, data, deadline);
  const rendered = await findDocument(deps.db, key);
  if (!rendered) throw new AppError('INTERNAL', RENDER_FAILED_MESSAGE);
  return rendered;
}

/** Queues render `data` (its user's turn) and waits for it until `deadline` (epoch ms). */
async function renderInTurn(deps: TReportPdfDeps, data: TRenderPdfJob, deadline: number) {
  const enqueue = () => deps.producers.add('render-pdf', data, { jobId: renderJobId(data) });
  let job;
  try {
    job = await enqueue();
  } catch (err) {
    throw unavailable(err);
  }
  // A Redis restart loses the job: it is queued again unless its PDF was stored meanwhile (a
  // finished render's job is removed at once, and its completion is on its way).
  const outcome = await deps.waiter.wait(job, Math.max(1, deadline - Date.now()), {
    requeue: async () => {
      if (await isStored(deps.db, data)) return;
      await enqueue();
      deps.log.warn({ jobId: job.id }, 'render job lost by Redis; queued again');
    },
  });
  if (outcome.status === 'timeout') {
    deps.log.warn({ jobId: job.id, state: outcome.state }, 'pdf render wait timed out');
    // Withdrawn before it started: the user's next render takes the turn.
    if (outcome.removed)
      await handOnRenderTurn(deps.producers, deps.redis, data).catch(() => undefined);
    throw tooLong();
  }
  if (outcome.status === 'failed') {
    deps.log.error({ jobId: job.id, reason: outcome.reason }, 'pdf render failed');
    throw new AppError('INTERNAL', RENDER_FAILED_MESSAGE);
  }
}

/**
 * Where the PDF of `userId`'s audit or dashboard stands (`GET .../report-status`,
 * docs/product.md#pdf-reports): `ready` when the stored one is of the subject as it is now;
 * `rendering`; `queued` with `queuedBehind` renders that start before it; `idle` when it is
 * neither stored nor asked for.
 *
 * @throws AppError 404 / 409 (see {@link currentVersion}); 503 when Redis does not answer.
 */
export async function reportPdfStatus(
  deps: Pick<TReportPdfDeps, 'db' | 'producers' | 'redis'>,
  key: Pick<TRenderPdfJob, 'kind' | 'subjectId' | 'userId'>,
): Promise<TReportPdfStatus> {
  const version = await currentVersion(deps.db, key);
  const data: TRenderPdfJob = { ...key, version };
  if (await isStored(deps.db, data)) return { state: 'ready', queuedBehind: 0 };
  const place = await renderPlace(deps.producers, deps.redis, data).catch((err: unknown) => {
    throw unavailable(err);
  });
  if (!place) return { state: 'idle', queuedBehind: 0 };
  if (place.at === 'rendering') return { state: 'rendering', queuedBehind: 0 };
  return { state: 'queued', queuedBehind: queuedBehind(place) };
}
