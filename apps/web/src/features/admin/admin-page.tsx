/**
 * Route `/admin` (docs/product.md#admin-screen and #states-and-transitions): the admin code gate,
 * then the admin dashboard. Loaded lazily by `./index.tsx`.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Lock, RefreshCw, Shield } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useFocusOnMount } from '@/hooks/use-focus';
import { AccessCodesCard } from './access-codes-card';
import { AdminGate } from './admin-gate';
import { clearAdminCode, useAdminCode } from './admin-session';
import { adminAuditsSummaryQuery, adminKeys } from './admin.api';
import { CacheCard } from './cache-card';
import { GenerateCodeCard } from './generate-code-card';
import { StoreHealthCard } from './store-health-card';
import { AuditHistoryCard, FeedbackCard } from './history-cards';
import { UsersCard } from './users-card';

/** The admin screen: locked behind the code gate until a valid admin code is entered. */
export default function AdminPage() {
  const adminCode = useAdminCode();
  if (!adminCode) return <AdminGate />;
  return <AdminDashboard adminCode={adminCode} />;
}

function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Card className="gap-1 py-4">
      <CardContent className="flex flex-col gap-1 px-4">
        <span className="text-xs font-medium text-muted-foreground">{label}</span>
        <span className="text-2xl font-semibold tabular-nums">{value}</span>
      </CardContent>
    </Card>
  );
}

function Stats({ adminCode }: { adminCode: string }) {
  const summary = useQuery(adminAuditsSummaryQuery(adminCode));
  const show = (value: number | undefined) =>
    summary.isError ? (
      '—'
    ) : value === undefined ? (
      <Skeleton className="mt-1 h-7 w-12" />
    ) : (
      value.toLocaleString('en-US')
    );
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      <Stat label="Total audits" value={show(summary.data?.totalAudits)} />
      <Stat label="Apps audited" value={show(summary.data?.uniqueApps)} />
      <Stat label="Active access codes" value={show(summary.data?.activeCodes)} />
      <Stat label="Feedback entries" value={show(summary.data?.feedbackEntries)} />
    </div>
  );
}

/** The unlocked screen; its heading takes the focus when it opens (after the unlock). */
function AdminDashboard({ adminCode }: { adminCode: string }) {
  const queryClient = useQueryClient();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div
      className="mx-auto flex w-full max-w-7xl flex-col gap-6 p-4 md:p-6"
      data-testid="admin-dashboard"
    >
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1
            ref={heading}
            tabIndex={-1}
            className="focus-target flex items-center gap-2 text-2xl font-semibold tracking-tight"
          >
            <Shield className="size-6 text-primary" aria-hidden /> Admin dashboard
          </h1>
          <p className="text-sm text-muted-foreground">
            Access codes, caches, store data health, audit history and user feedback.
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => void queryClient.invalidateQueries({ queryKey: adminKeys.all })}
          >
            <RefreshCw /> refresh
          </Button>
          <Button variant="outline" size="sm" onClick={clearAdminCode}>
            <Lock /> lock
          </Button>
        </div>
      </header>
      <Stats adminCode={adminCode} />
      {/* One column of at most the screen's width (an implicit column would grow to its
          widest table), two side by side on wide screens. */}
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <GenerateCodeCard adminCode={adminCode} />
        <CacheCard adminCode={adminCode} />
      </div>
      <StoreHealthCard adminCode={adminCode} />
      <AccessCodesCard adminCode={adminCode} />
      <UsersCard adminCode={adminCode} />
      <AuditHistoryCard adminCode={adminCode} />
      <FeedbackCard adminCode={adminCode} />
    </div>
  );
}
