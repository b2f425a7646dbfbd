/**
 * The result of one audit (docs/product.md#results-view and "Standalone result page"):
 * actions, app header with overall score, the store data line, Visual Assets, ASO Analysis,
 * Competitor Analysis,
 * feedback (the owner's result also shows the search ranks of the audit's keywords in the
 * Keyword Field section); the standalone page (`variant="page"`) adds Competitor Screenshots and the promo
 * block. Scraped text is rendered as React text nodes only, never as HTML.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AlertTriangleIcon,
  ArrowLeftIcon,
  CheckIcon,
  ExternalLinkIcon,
  FileSearchIcon,
  Loader2Icon,
  LockIcon,
  RotateCcwIcon,
  SaveIcon,
} from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { ZSavedAudit, type TAudit } from '@aso/contracts';
import { scoreComposition } from '@aso/aso-rules';
import { DownloadPdfButton } from '@/components/download-pdf-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { announce } from '@/components/ui/live-announcer';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth/auth.context';
import { useFocusOnMount } from '@/hooks/use-focus';
import { ApiError, apiFetch } from '@/lib/api';
import { savedAuditName } from '@/lib/audit.helpers';
import { formatDuration } from '@/lib/format.helpers';
import { auditQuery, savedAuditOfQuery, savedAuditsKey, sharedAuditQuery } from '@/lib/queries';
import { AuditKeywordRanks } from '@/features/keywords/audit-keyword-ranks';
import { ShareDialog } from '@/features/share/share-dialog';
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

/** True when the audit exists but belongs to another account (its address was passed on). */
function isNotYours(err: unknown): boolean {
  return err instanceof ApiError && err.body?.reason === 'NOT_YOURS';
}

/** What a signed-in colleague sees at another account's `/results/{id}`: ask for a share link. */
function PrivateAudit({ onBack }: { onBack: () => void }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div
      className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-24 text-center"
      data-testid="audit-not-yours"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-muted">
        <LockIcon className="size-7 text-muted-foreground" />
      </span>
      <h1 ref={heading} tabIndex={-1} className="focus-target text-2xl font-bold tracking-[0.15em]">
        PRIVATE AUDIT
      </h1>
      <p className="text-sm text-muted-foreground">
        This audit belongs to another account: its address opens only for whoever ran it. Ask its
        owner for a share link (the <strong>share</strong> button on the result).
      </p>
      <Button variant="outline" onClick={onBack}>
        <ArrowLeftIcon /> back
      </Button>
    </div>
  );
}

/** A share link that is unknown, revoked or expired. */
function ShareLinkGone() {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div
      className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-24 text-center"
      data-testid="share-not-found"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-muted">
        <FileSearchIcon className="size-7 text-muted-foreground" />
      </span>
      <h1 ref={heading} tabIndex={-1} className="focus-target text-2xl font-bold tracking-[0.15em]">
        LINK NOT AVAILABLE
      </h1>
      <p className="text-sm text-muted-foreground">
        This share link does not exist, was revoked or has expired. Ask whoever sent it for a new
        one.
      </p>
    </div>
  );
}

/** 'AUDIT NOT FOUND' with a back button (docs/product.md#results-view). */
export function AuditNotFound({ onBack }: { onBack: () => void }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div
      className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-24 text-center"
      data-testid="audit-not-found"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-muted">
        <FileSearchIcon className="size-7 text-muted-foreground" />
      </span>
      <h1 ref={heading} tabIndex={-1} className="focus-target text-2xl font-bold tracking-[0.15em]">
        AUDIT NOT FOUND
      </h1>
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
  const saved = useQuery({
    ...savedAuditOfQuery(audit?.id ?? ''),
    enabled: audit !== undefined,
  }).data;
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
        focusableWhenDisabled
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
      focusableWhenDisabled
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
export interface TAuditResultProps {
  auditId: string;
  /**
   * 'tab': inside the audit tab (links to its own page); 'page': the standalone
   * `/results/:id` page; 'print': the page's content without actions, feedback or promo, for
   * the PDF report (marks itself `data-print-state` ready or error when it can be printed);
   * 'shared': the read-only page of a share link (`shareToken`): the result and its PDF, no
   * other action.
   */
  variant: 'tab' | 'page' | 'print' | 'shared';
  /** The share link's token (variant 'shared'): the audit is read through it, without a session. */
  shareToken?: string;
  onNewAnalysis: () => void;
  /** Back from 'AUDIT NOT FOUND' (default: same as new analysis). */
  onBack?: () => void;
}

/** What screen readers are told once a finished audit's result shows. */
export function resultAnnouncement(audit: TAudit): string {
  const name = audit.appName ?? 'the app';
  if (audit.overallScore === null) return `Audit results for ${name} are shown.`;
  const c = audit.structuredAnalysis ? scoreComposition(audit.structuredAnalysis) : null;
  const of = c ? ` from ${c.judgedSections} of ${c.totalSections} sections` : '';
  return `Audit results for ${name} are shown: overall ASO score ${audit.overallScore} out of 100${of}.`;
}

/** The result view; a finished audit's result is announced once to screen readers. */
export function AuditResult({
  auditId,
  variant,
  shareToken,
  onNewAnalysis,
  onBack,
}: TAuditResultProps) {
  const shared = variant === 'shared' && shareToken !== undefined;
  const query = useQuery(shared ? sharedAuditQuery(shareToken) : auditQuery(auditId));
  const images = useStoreImageFailures();
  const done = query.data?.status === 'done' && variant !== 'print' ? query.data : null;
  // Once per audit shown, not on every refetch of the same audit.
  const announced = useRef<string | null>(null);
  useEffect(() => {
    if (!done || announced.current === done.id) return;
    announced.current = done.id;
    announce(resultAnnouncement(done));
  }, [done]);
  if (query.isError && isAuditNotFound(query.error)) {
    if (shared) return <ShareLinkGone />;
    if (isNotYours(query.error)) return <PrivateAudit onBack={onBack ?? onNewAnalysis} />;
    return (
      <div data-print-state={variant === 'print' ? 'error' : undefined}>
        <AuditNotFound onBack={onBack ?? onNewAnalysis} />
      </div>
    );
  }
  const audit = query.data;
  const print = variant === 'print';
  const own = variant === 'tab' || variant === 'page';
  const printState =
    audit?.status === 'done'
      ? 'ready'
      : query.isError || audit?.status === 'failed'
        ? 'error'
        : 'loading';

  return (
    <div
      className="mx-auto w-full max-w-6xl space-y-6 px-4 py-6 sm:px-6 lg:py-8"
      data-testid="audit-result"
      data-print-state={print ? printState : undefined}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <p className="text-xs font-semibold tracking-widest text-primary uppercase">
            {print ? 'ASO audit report' : shared ? 'shared ASO audit (read-only)' : 'audit result'}
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
        {shared && (
          <DownloadPdfButton
            path={`/api/shared/${encodeURIComponent(shareToken)}/report.pdf`}
            fallbackName="aso-audit-report.pdf"
            disabled={audit?.status !== 'done'}
          />
        )}
        {own && (
          <div className="flex flex-wrap gap-2">
            <SaveAuditButton audit={audit} />
            {audit?.status === 'done' && <ShareDialog auditId={auditId} appName={audit.appName} />}
            <DownloadPdfButton
              path={`/api/audit/${encodeURIComponent(auditId)}/report.pdf`}
              fallbackName="aso-audit-report.pdf"
              disabled={audit?.status !== 'done'}
            />
            {variant === 'tab' && (
              <Button variant="outline" asChild>
                <Link to={`/results/${encodeURIComponent(auditId)}`} data-testid="result-page-link">
                  <ExternalLinkIcon /> open as page
                </Link>
              </Button>
            )}
            <Button onClick={onNewAnalysis}>
              <RotateCcwIcon /> new analysis
            </Button>
          </div>
        )}
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
            <AppHeaderCard audit={audit} watchable={own} />
            <StoreDataLine storeData={audit.storeData} />
          </div>
          <VisualAssets audit={audit} />
          <AsoAnalysis
            audit={audit}
            sectionExtras={
              own && audit.keywords?.trim()
                ? { keywords: <AuditKeywordRanks auditId={audit.id} /> }
                : {}
            }
          />
          <CompetitorTable audit={audit} watchable={own} />
          {variant !== 'tab' && <CompetitorScreenshots audit={audit} />}
          {variant === 'page' && <PromoBlock />}
          {own && <FeedbackBox auditId={audit.id} />}
        </images.Provider>
      )}
    </div>
  );
}
