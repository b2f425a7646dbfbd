import { useEffect, useState } from 'react';
import { AuditTab } from '@/features/audit/audit-tab';
import { DashboardTab } from '@/features/dashboard';
import { useMainScreen } from './main-screen.context';

/**
 * Route `/`: the audit tab and the dashboard tab (docs/product.md#screens). A tab stays mounted
 * once shown, so a running audit's progress or a dashboard's uploads survive switching tabs.
 */
export function MainScreen() {
  const { tab, auditView } = useMainScreen();
  const [dashboardShown, setDashboardShown] = useState(tab === 'dashboard');
  const viewKey = `${tab}:${auditView.kind}:${'auditId' in auditView ? auditView.auditId : ''}`;
  // Each view opens at its top (its heading, timer and actions), never where the last one was
  // scrolled to.
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
  }, [viewKey]);
  if (tab === 'dashboard' && !dashboardShown) setDashboardShown(true);
  return (
    <>
      <div hidden={tab !== 'audit'} data-testid="audit-tab">
        <AuditTab />
      </div>
      {dashboardShown && (
        <div hidden={tab !== 'dashboard'} data-testid="dashboard-tab">
          <DashboardTab />
        </div>
      )}
    </>
  );
}
