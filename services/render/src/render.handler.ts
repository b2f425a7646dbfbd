import { randomBytes, createHash } from 'node:crypto';
import { insertSession, revokeSession, upsertDocument, type Db } from '@aso/db';
import {
  CACHE_SCOPES,
  publishInvalidation,
  UnrecoverableError,
  type JobHandler,
  type TRenderPdfJob,
} from '@aso/queue';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BrowserPool } from './browser.pool';
import type { TRenderEnv } from './env';

/** What the render handler uses. */
export interface RenderDeps {
  env: TRenderEnv;
  db: Db;
  log: Logger;
  browsers: BrowserPool;
  /** Command connection: tells the api replicas to drop the revoked session from their caches. */
  redis: Redis;
}

/** The print page of a subject in the web app (apps/web print routes). */
export function printPath(data: Pick<TRenderPdfJob, 'kind' | 'subjectId'>): string {
  return `/print/${data.kind}/${encodeURIComponent(data.subjectId)}`;
}

/** Pages of a PDF written by Chromium: its `/Type /Page` objects. */
export function countPdfPages(pdf: Uint8Array): number {
  const text = Buffer.from(pdf).toString('latin1');
  return (text.match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

/** The download name of a rendered PDF, from the page's title (ASCII letters, digits, '-'). */
export function pdfFileName(title: string, kind: TRenderPdfJob['kind']): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${slug || kind}-report.pdf`;
}

/**
 * Builds the `render-pdf` handler: renders the web app's print page of an audit or a dashboard
 * in Chromium and stores the PDF for its owner (`documents`, with the job's version).
 *
 * - The page is opened as the owner through a session of its own, created for this render
 *   (never passed through the job) and revoked when it ends, in the database and in the api
 *   replicas' session caches (a revoked token must not keep opening pages until they expire).
 * - Progress: 10 browser ready, 40 page loaded, 80 PDF written, 100 stored.
 * - The whole render is bounded by `RENDER_TIMEOUT_MS`; the job's abort signal (shutdown)
 *   closes the page at once.
 *
 * @throws UnrecoverableError when the owner no longer exists or the page says the subject is
 *   missing (a retry cannot help); other errors (Chromium, timeouts) are retried once.
 */
export function createRenderHandler(deps: RenderDeps): JobHandler<'render-pdf'> {
  const { env, db, log } = deps;
  return async (data, job, signal) => {
    const owner = await db
      .selectFrom('users')
      .select(['id', 'access_code_id'])
      .where('id', '=', data.userId)
      .executeTakeFirst();
    if (!owner?.access_code_id) throw new UnrecoverableError('the owner of this subject is gone');

    const token = randomBytes(32).toString('base64url');
    const tokenHash = createHash('sha256').update(token, 'utf8').digest('hex');
    await insertSession(db, {
      tokenHash,
      userId: owner.id,
      accessCodeId: owner.access_code_id,
      expiresAt: new Date(Date.now() + env.RENDER_TIMEOUT_MS + 60_000),
    });
    const deadline = AbortSignal.timeout(env.RENDER_TIMEOUT_MS);
    const stop = AbortSignal.any([signal, deadline]);
    const browser = await deps.browsers.get();
    await job.updateProgress(10);
    const context = await browser.createBrowserContext();
    const onStop = () => void context.close().catch(() => undefined);
    stop.addEventListener('abort', onStop, { once: true });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(env.RENDER_TIMEOUT_MS);
      await page.setViewport({ width: 1200, height: 1600 });
      await page.evaluateOnNewDocument((value: string) => {
        localStorage.setItem('sessionToken', value);
      }, token);
      const url = new URL(printPath(data), env.RENDER_APP_URL).toString();
      await page.goto(url, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-print-state="ready"], [data-print-state="error"]');
      // A string expression: this service has no DOM types.
      const outcome: unknown = await page.evaluate(
        `document.querySelector('[data-print-state="ready"]') ? 'ready' : 'error'`,
      );
      if (outcome !== 'ready') {
        throw new UnrecoverableError(`the ${data.kind} could not be shown for printing`);
      }
      await job.updateProgress(40);
      await page.emulateMediaType('print');
      const pdf = await page.pdf({
        format: 'A4',
        printBackground: true,
        margin: { top: '12mm', bottom: '14mm', left: '10mm', right: '10mm' },
        displayHeaderFooter: true,
        headerTemplate: '<span></span>',
        footerTemplate:
          '<div style="font-size:8px;width:100%;text-align:center;color:#888"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
      });
      await job.updateProgress(80);
      const title = await page.title();
      const bytes = Buffer.from(pdf);
      const pages = countPdfPages(bytes);
      await upsertDocument(
        db,
        { userId: data.userId, kind: data.kind, subjectId: data.subjectId },
        { version: data.version, fileName: pdfFileName(title, data.kind), pdf: bytes, pages },
      );
      await job.updateProgress(100);
      log.info({ jobId: job.id, kind: data.kind, bytes: bytes.length, pages }, 'pdf rendered');
      return { bytes: bytes.length, pages };
    } catch (err) {
      if (deadline.aborted)
        throw new Error(`rendering took longer than ${env.RENDER_TIMEOUT_MS} ms`);
      throw err;
    } finally {
      stop.removeEventListener('abort', onStop);
      await context.close().catch(() => undefined);
      await revokeSession(db, tokenHash, new Date()).catch(() => undefined);
      await publishInvalidation(
        deps.redis,
        env.QUEUE_PREFIX,
        CACHE_SCOPES.session,
        tokenHash,
      ).catch((err: unknown) =>
        log.warn({ jobId: job.id, err }, 'could not tell the api to drop the render session'),
      );
    }
  };
}
