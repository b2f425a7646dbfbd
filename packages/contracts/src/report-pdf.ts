import { z } from 'zod';

/**
 * Answer of `GET /api/audit/{id}/report-status`, `GET /api/dashboards/{id}/report-status` and
 * `GET /api/shared/{token}/report-status` (docs/product.md#pdf-reports): where the PDF of the
 * subject as it is now stands.
 * - `ready`: stored, the download answers at once;
 * - `rendering`: being rendered now;
 * - `queued`: waiting, `queuedBehind` renders start before it (a lower bound: users who ask
 *   meanwhile take their turns in between);
 * - `idle`: neither stored nor asked for.
 */
export const ZReportPdfStatus = z.object({
  state: z.enum(['ready', 'rendering', 'queued', 'idle']),
  /** Renders that start before this one (0 unless `queued`). */
  queuedBehind: z.number().int().min(0),
});
export type TReportPdfStatus = z.infer<typeof ZReportPdfStatus>;
