import { randomBytes } from 'node:crypto';
import {
  findUserById,
  hashSessionToken,
  insertSession,
  revokeSession,
  upsertDocument,
  type TDb,
} from '@aso/db';
import {
  CACHE_SCOPES,
  handOnRenderTurn,
  publishInvalidation,
  UnrecoverableError,
  type Job,
  type TJobHandler,
  type Producers,
  type TRenderPdfJob,
  type TRedisClient,
} from '@aso/queue';
import type { Logger } from 'pino';
import type { BrowserPool } from './browser.pool';
import type { TRenderEnv } from './env';

/** What the render handler uses. */
export interface TRenderDeps {
  env: TRenderEnv;
  db: TDb;
  log: Logger;
  browsers: BrowserPool;
  /**
   * Command connection: tells the api replicas to drop the revoked session from their caches,
   * and hands the owner's render turn on when a render ends.
   */
  redis: TRedisClient;
  /** Adds the job of the owner's next render (docs/product.md#pdf-reports). */
  producers: Producers;
  /**
   * True for an error after which the worker defers the job (the database is down) rather
   * than failing it: the render keeps its owner's turn then.
   */
  isDeferred?: (err: unknown) => boolean;
}

/** The print page of a subject in the web app (apps/web print routes). */
export function printPath(data: Pick<TRenderPdfJob, 'kind' | 'subjectId'>): string {
  return `/print/${data.kind}/${encodeURIComponent(data.subjectId)}`;
}

/**
 * The paper: A4 (210 mm wide) with 10 mm side margins, printed at {@link PRINT_SCALE}. The page
 * is laid out at the width the printed content has before scaling, so charts (canvas, sized
 * once when drawn) come out exactly as wide as the page.
 */
const PAPER = { widthMm: 210, sideMarginMm: 10 } as const;
/** Print scale: 16 px body text prints at 9 pt, and the desktop layout (957 px) fits A4. */
const PRINT_SCALE = 0.75;
/** CSS px per mm (96 px per inch). */
const PX_PER_MM = 96 / 25.4;
/** Width (CSS px) at which print pages are laid out: A4's printable width / scale. */
export const PRINT_LAYOUT_WIDTH_PX = Math.round(
  ((PAPER.widthMm - 2 * PAPER.sideMarginMm) * PX_PER_MM) / PRINT_SCALE,
);
/**
 * Longest wait for the page's images once it is ready (ms): the print page gives an image up
 * for its placeholder after 3 s (apps/web `PRINT_IMAGE_WAIT_MS`), this bounds the rest.
 */
const IMAGE_SETTLE_MS = 5_000;

/** `text` safe inside HTML (the header and footer templates are HTML). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The header and footer Chromium prints on every page (`page.pdf` `headerTemplate` and
 * `footerTemplate`; `pageNumber` and `totalPages` are filled in by Chromium): `header` (the
 * print page's `data-print-header`: app, storefront, audit date) at the top, the report's
 * kind and the page number at the bottom. Template text needs its own font size: it does not
 * inherit the page's styles.
 */
export function headerFooterTemplates(
  header: string,
  kind: TRenderPdfJob['kind'],
): { headerTemplate: string; footerTemplate: string } {
  const style =
    'font-family:system-ui,sans-serif;font-size:8px;color:#666;width:100%;padding:0 10mm;display:flex;justify-content:space-between';
  const title = kind === 'audit' ? 'ASO audit report' : 'Analytics dashboard report';
  return {
    headerTemplate: `<div style="${style}"><span>${escapeHtml(header)}</span></div>`,
    footerTemplate: `<div style="${style}"><span>${title}</span><span>page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`,
  };
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
 * - The page is laid out for paper from the start: print media, {@link PRINT_LAYOUT_WIDTH_PX}
 *   wide, so charts are drawn at the page's width; it is printed once it says it is ready and
 *   its images have loaded or given way to placeholders (never on network idle: images of an
 *   unreachable host would hold it for their whole timeout).
 * - Header (app, storefront, audit date) and footer (page numbers) on every page.
 * - Progress: 10 browser ready, 40 page loaded, 80 PDF written, 100 stored; the time of each
 *   phase is logged with the result.
 * - The whole render is bounded by `RENDER_TIMEOUT_MS`; the job's abort signal (shutdown)
 *   closes the page at once.
 *
 * @throws UnrecoverableError when the owner no longer exists or the page says the subject is
 *   missing (a retry cannot help); other errors (Chromium, timeouts) are retried once.
 */
export function createRenderHandler(deps: TRenderDeps): TJobHandler<'render-pdf'> {
  const render = createPdfRenderer(deps);
  return async (data, job, signal) => {
    try {
      const result = await render(data, job, signal);
      await handOn(deps, data, job);
      return result;
    } catch (err) {
      // A shutdown or a deferred job comes back: it keeps the owner's turn.
      const deferred = signal.aborted || (deps.isDeferred?.(err) ?? false);
      if (!deferred && isLastAttempt(job, err)) await handOn(deps, data, job);
      throw err;
    }
  };
}

/**
 * True when `err` ends `job` for good: BullMQ moves it to failed rather than retrying it (an
 * UnrecoverableError, or its last attempt; `attemptsMade` counts the attempts that failed
 * before this one).
 */
export function isLastAttempt(job: Pick<Job, 'attemptsMade' | 'opts'>, err: unknown): boolean {
  return err instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/**
 * Hands the owner's render turn to their next lined render, once this one ended for good
 * (docs/product.md#pdf-reports). Never throws: a hand-on that fails is repaired by the api,
 * whose waiting requests check that the owner's current render is on its way.
 */
async function handOn(deps: TRenderDeps, data: TRenderPdfJob, job: Pick<Job, 'id'>): Promise<void> {
  try {
    const next = await handOnRenderTurn(deps.producers, deps.redis, data);
    if (next)
      deps.log.debug({ jobId: job.id, userId: data.userId }, 'next render of the owner queued');
  } catch (err) {
    deps.log.warn({ jobId: job.id, err }, "could not queue the owner's next render");
  }
}

/** The render itself (see {@link createRenderHandler}). */
function createPdfRenderer(deps: TRenderDeps): TJobHandler<'render-pdf'> {
  const { env, db, log } = deps;
  return async (data, job, signal) => {
    const owner = await findUserById(db, data.userId);
    if (!owner?.access_code_id) throw new UnrecoverableError('the owner of this subject is gone');

    const token = randomBytes(32).toString('base64url');
    const tokenHash = hashSessionToken(token);
    await insertSession(db, {
      tokenHash,
      userId: owner.id,
      accessCodeId: owner.access_code_id,
      expiresAt: new Date(Date.now() + env.RENDER_TIMEOUT_MS + 60_000),
    });
    const deadline = AbortSignal.timeout(env.RENDER_TIMEOUT_MS);
    const stop = AbortSignal.any([signal, deadline]);
    const phases: Record<string, number> = {};
    let mark = performance.now();
    const lap = (name: string) => {
      const now = performance.now();
      phases[name] = Math.round(now - mark);
      mark = now;
    };
    const browser = await deps.browsers.get();
    lap('browserMs');
    await job.updateProgress(10);
    const context = await browser.createBrowserContext();
    const onStop = () => void context.close().catch(() => undefined);
    stop.addEventListener('abort', onStop, { once: true });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(env.RENDER_TIMEOUT_MS);
      await page.setViewport({ width: PRINT_LAYOUT_WIDTH_PX, height: 1600 });
      await page.emulateMediaType('print');
      await page.evaluateOnNewDocument((value: string) => {
        localStorage.setItem('sessionToken', value);
      }, token);
      const url = new URL(printPath(data), env.RENDER_APP_URL).toString();
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('[data-print-state="ready"], [data-print-state="error"]');
      lap('pageMs');
      // A string expression: this service has no DOM types.
      const outcome: unknown = await page.evaluate(
        `document.querySelector('[data-print-state="ready"]') ? 'ready' : 'error'`,
      );
      if (outcome !== 'ready') {
        throw new UnrecoverableError(`the ${data.kind} could not be shown for printing`);
      }
      // Images: loaded, failed (a placeholder then) or given up by the page; fonts drawn.
      await page
        .waitForFunction(
          `Array.from(document.images).every((i) => i.complete) && document.fonts.status === 'loaded'`,
          { timeout: IMAGE_SETTLE_MS, polling: 100 },
        )
        .catch(() => log.warn({ jobId: job.id }, 'printing before every image settled'));
      lap('imagesMs');
      await job.updateProgress(40);
      const header: unknown = await page.evaluate(
        `document.documentElement.dataset.printHeader ?? document.title`,
      );
      const pdf = await page.pdf({
        format: 'A4',
        scale: PRINT_SCALE,
        printBackground: true,
        margin: {
          top: '14mm',
          bottom: '14mm',
          left: `${PAPER.sideMarginMm}mm`,
          right: `${PAPER.sideMarginMm}mm`,
        },
        displayHeaderFooter: true,
        ...headerFooterTemplates(typeof header === 'string' ? header : '', data.kind),
      });
      lap('pdfMs');
      await job.updateProgress(80);
      const title = await page.title();
      const bytes = Buffer.from(pdf);
      const pages = countPdfPages(bytes);
      await upsertDocument(
        db,
        { userId: data.userId, kind: data.kind, subjectId: data.subjectId },
        { version: data.version, fileName: pdfFileName(title, data.kind), pdf: bytes, pages },
      );
      lap('storeMs');
      await job.updateProgress(100);
      log.info(
        { jobId: job.id, kind: data.kind, bytes: bytes.length, pages, ...phases },
        'pdf rendered',
      );
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
