/**
 * The print pages the render worker turns into PDF reports (`/print/audit/:id`,
 * `/print/dashboard/:id`): the same content as the result page and the dashboard, without the
 * sidebar and the actions, with chart animations off. Each marks `data-print-state` ready (or
 * error) when it can be printed, and `data-print-header` on the document with the line the
 * render worker prints at the top of every page.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { lazyScreen } from '@/components/lazy-screen';
import { AuditResult } from '@/features/results/audit-result';
import { auditQuery } from '@/lib/queries';
import { auditPrintHeader } from './print-header';

const DashboardPrint = lazyScreen(
  () => import('@/features/dashboard/dashboard-print'),
  (m) => m.default,
  { what: 'dashboard', loadingText: 'Loading dashboard...' },
).Screen;

/** Marks the document as printing (charts draw without animation, see `isPrinting`). */
function usePrintMode(): void {
  useState(() => {
    document.documentElement.dataset.print = 'true';
    return true;
  });
}

/** `/print/audit/:id`. */
export function PrintAuditPage() {
  usePrintMode();
  const { id = '' } = useParams();
  const audit = useQuery(auditQuery(id)).data;
  useEffect(() => {
    if (audit?.appName) {
      document.title = `${audit.appName} ${audit.storefront.toUpperCase()} ASO audit`;
      // Read by the render worker for the PDF's page header.
      document.documentElement.dataset.printHeader = auditPrintHeader(audit);
    }
  }, [audit]);
  return <AuditResult auditId={id} variant="print" onNewAnalysis={() => undefined} />;
}

/** `/print/dashboard/:id`. */
export function PrintDashboardPage() {
  usePrintMode();
  return <DashboardPrint />;
}
