import type { FlowJob } from 'bullmq';
import type { TAuditInputs } from '@aso/contracts';
import { analysisJobId, JOBS, scrapeJobId, type TScrapeJob } from './catalog';

/**
 * The BullMQ flow of one audit (docs/product.md#starting-an-audit): the `analysis` parent job whose
 * children are one `scrape` job per app (role main, then competitors in input order), with
 * the catalog's options, `failParentOnFailure` on each child (a scrape that fails after its
 * attempts fails the audit) and deterministic job ids (`analysisJobId`, `scrapeJobId`), so
 * adding the same audit's flow again while it exists adds nothing. An audit of a stored snapshot
 * passes `snapshotId` to the main app's scrape, which reads that snapshot instead of the store.
 */
export function auditFlow(auditId: string, inputs: TAuditInputs): FlowJob {
  const apps: Array<TAuditInputs['main'] & { role: TScrapeJob['role']; snapshotId?: string }> = [
    {
      ...inputs.main,
      role: 'main',
      ...(inputs.snapshotId ? { snapshotId: inputs.snapshotId } : {}),
    },
    ...inputs.competitors.map((c) => ({ ...c, role: 'competitor' as const })),
  ];
  return {
    name: 'analysis',
    queueName: JOBS.analysis.queue,
    data: JOBS.analysis.schema.parse({ auditId }),
    opts: { ...JOBS.analysis.options, jobId: analysisJobId(auditId) },
    children: apps.map((a) => ({
      name: 'scrape',
      queueName: JOBS.scrape.queue,
      data: JOBS.scrape.schema.parse({
        auditId,
        appId: a.appId,
        storefront: a.storefront,
        role: a.role,
        appStoreUrl: a.appStoreUrl,
        ...(a.snapshotId ? { snapshotId: a.snapshotId } : {}),
      }),
      opts: {
        ...JOBS.scrape.options,
        jobId: scrapeJobId(auditId, a.appId),
        failParentOnFailure: true,
      },
    })),
  };
}
