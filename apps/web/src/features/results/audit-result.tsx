/**
 * The result of one audit (spec section 2 "Results view" and "Standalone result page"):
 * actions, app header with overall score, the store data line, Visual Assets, ASO Analysis,
 * Competitor Analysis,
 * feedback; the standalone page (`variant="page"`) adds Competitor Screenshots and the promo
 * block. Scraped text is rendered as React text nodes only, never as HTML.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AlertTriangleIcon,
  ArrowLeftIcon,
  CheckIcon,
  FileSearchIcon,
  Loader2Icon,
  RotateCcwIcon,
  SaveIcon,
} from 'lucide-react';
import { ZSavedAudit, type TAudit } from '@aso/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth/auth.context';
import { ApiError, apiFetch } from '@/lib/api';
import { savedAuditName } from '@/lib/audit.helpers';
import { formatDuration } from '@/lib/format.helpers';
import { auditQuery, savedAuditsKey, savedAuditsQuery } from '@/lib/queries';
import { AppHeaderCard } from './app-header-card';
import { AsoAnalysis } from './aso-analysis';
import { CompetitorScreenshots } from './competitor-screenshots';
import { CompetitorTable } from './competitor-table';
import { FeedbackBox } from './feedback-box';
import { PromoBlock } from './promo-block';
import { StoreDataLine } from './store-data-line';
import { StoreImagesNotice, useStoreImageFailures } from './store-image';
import { VisualAssets } from './visual-assets';

/** True for answers that mean "no such audit for you" (unknown, foreign or malformed id). */
export function isAuditNotFound(err: unknown): boolean {
  return (
    err instanceof ApiError && (err.status === 404 || err.status === 403 || err.status === 400)
  );
}

/** 'AUDIT NOT FOUND' with a back button (spec section 2). */
export function AuditNotFound({ onBack }: { onBack: () => void }) {
  return (
    <div
      className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-24 text-center"
      data-testid="audit-not-found"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-muted">
        <FileSearchIcon className="size-7 text-muted-foreground" />
      </span>
      <h1 className="text-2xl font-bold tracking-[0.15em]">AUDIT NOT FOUND</h1>
      <p className="text-sm text-muted-foreground">This audit does not exist or is not yours.</p>
      <Button variant="outline" onClick={onBack}>
        <ArrowLeftIcon /> back
      </Button>
    </div>
  );
}

function ResultSkeleton() {
  return (
    <div className="space-y-4" aria-busy="true" data-testid="result-loading">
      <Skeleton className="h-40 w-full rounded-xl" />
      <Skeleton className="h-72 w-full rounded-xl" />
      <div className="grid gap-4 xl:grid-cols-2">
        <Skeleton className="h-52 rounded-xl" />
        <Skeleton className="h-52 rounded-xl" />
      </div>
    </div>
  );
}

function SaveAuditButton({ audit }: { audit: TAudit | undefined }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const saved = useQuery(savedAuditsQuery()).data?.find((s) => s.auditId === audit?.id);
  const save = useMutation({
    mutationFn: (a: TAudit) => {
      const name = savedAuditName(a, new Date());
      return apiFetch('/api/saved-audits', {
        method: 'POST',
        body: { auditId: a.id, name, storefront: a.storefront || 'us' },
        schema: ZSavedAudit,
      });
    },
    onSuccess: (answer) => {
      toast({ title: 'Audit Saved', description: `Saved as "${answer.name}".` });
      void queryClient.invalidateQueries({ queryKey: savedAuditsKey });
    },
    onError: () =>
      toast({
        title: 'Save Failed',
        description: 'Failed to save audit. Please try again.',
        variant: 'destructive',
      }),
  });
  if (saved) {
    return (
      <Button
        variant="outline"
        disabled
        title={`Saved as "${saved.name}"`}
        data-testid="save-audit"
        data-saved="true"
      >
        <CheckIcon /> saved
      </Button>
    );
  }
  return (
    <Button
      variant="outline"
      disabled={save.isPending}
      data-testid="save-audit"
      onClick={() => {
        if (!audit || audit.status !== 'done') {
          toast({
            title: 'Save Failed',
            description: 'No audit data available to save',
            variant: 'destructive',
          });
        } else if (!user) {
          toast({
            title: 'Save Failed',
            description: 'You must be logged in to save audits',
            variant: 'destructive',
          });
        } else save.mutate(audit);
      }}
    >
      {save.isPending ? <Loader2Icon className="animate-spin" /> : <SaveIcon />}
      save audit
    </Button>
  );
}

/** Props of {@link AuditResult}. */
export interface AuditResultProps {
  auditId: string;
  /** 'tab': inside the audit tab; 'page': the standalone `/results/:id` page. */
  variant: 'tab' | 'page';
  onNewAnalysis: () => void;
  /** Back from 'AUDIT NOT FOUND' (default: same as new analysis). */
  onBack?: () => void;
}

/** The result view. */
export function AuditResult({ auditId, variant, onNewAnalysis, onBack }: AuditResultProps) {
  const query = useQuery(auditQuery(auditId));
  const images = useStoreImageFailures();
  if (query.isError && isAuditNotFound(query.error))
    return <AuditNotFound onBack={onBack ?? onNewAnalysis} />;
  const audit = query.data;

  return (
    <div
      className="mx-auto w-full max-w-6xl space-y-6 px-4 py-6 sm:px-6 lg:py-8"
      data-testid="audit-result"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <p className="text-xs font-semibold tracking-widest text-primary uppercase">
            audit result
          </p>
          {audit && (
            <p className="text-sm text-muted-foreground">
              {new Date(audit.completedAt ?? audit.createdAt).toLocaleString(undefined, {
                dateStyle: 'medium',
                timeStyle: 'short',
              })}
              {audit.storefront && ` · ${audit.storefront.toUpperCase()} storefront`}
              {audit.completedAt && audit.status === 'done' && (
                <span data-testid="audit-duration">
                  {` · took ${formatDuration(Date.parse(audit.completedAt) - Date.parse(audit.createdAt))}`}
                </span>
              )}
            </p>
          )}
        </div>
        <div className="flex gap-2">
          <SaveAuditButton audit={audit} />
          <Button onClick={onNewAnalysis}>
            <RotateCcwIcon /> new analysis
          </Button>
        </div>
      </div>

      {query.isPending && <ResultSkeleton />}

      {query.isError && (
        <Card className="items-center gap-3 p-8 text-center">
          <AlertTriangleIcon className="size-8 text-destructive" />
          <p className="font-medium">The audit could not be loaded.</p>
          <p className="text-sm text-muted-foreground">{query.error.message}</p>
          <Button variant="outline" onClick={() => void query.refetch()}>
            try again
          </Button>
        </Card>
      )}

      {audit && audit.status === 'failed' && (
        <Card className="items-center gap-3 p-8 text-center" data-testid="audit-failed">
          <AlertTriangleIcon className="size-8 text-destructive" />
          <p className="font-medium">This audit failed.</p>
          <p className="text-sm text-muted-foreground">
            {audit.error ?? 'Failed to analyze app. Please try again.'}
          </p>
        </Card>
      )}

      {audit && (audit.status === 'queued' || audit.status === 'running') && (
        <Card className="items-center gap-3 p-8 text-center">
          <Loader2Icon className="size-8 animate-spin text-primary" />
          <p className="font-medium">This audit is still running.</p>
          <Button variant="outline" onClick={() => void query.refetch()}>
            refresh
          </Button>
        </Card>
      )}

      {audit && audit.status === 'done' && (
        <images.Provider>
          {images.failed && <StoreImagesNotice />}
          <div className="space-y-3">
            <AppHeaderCard audit={audit} />
            <StoreDataLine storeData={audit.storeData} />
          </div>
          <VisualAssets audit={audit} />
          <AsoAnalysis audit={audit} />
          <CompetitorTable audit={audit} />
          {variant === 'page' && <CompetitorScreenshots audit={audit} />}
          {variant === 'page' && <PromoBlock />}
          <FeedbackBox auditId={audit.id} />
        </images.Provider>
      )}
    </div>
  );
}
