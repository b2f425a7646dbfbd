import { useQuery } from '@tanstack/react-query';
import { Activity, PauseCircle } from 'lucide-react';
import { LISTING_FIELD_LABELS, ZListingField, type TStoreHealth } from '@aso/contracts';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { adminStoreHealthQuery } from './admin.api';
import { EmptyState, ErrorState, LoadingRows } from '@/components/list-states';
import { AdminTime } from './section-state';

/** How the card names a page layout of a store read. */
const LAYOUT_NAMES: Record<string, string> = {
  '2025': '2025 layout',
  ember: 'Ember layout',
  jsonld: 'JSON-LD only',
  none: 'no page',
  unknown: 'unknown layout',
};

/** A share of fields found below this (ratio 0-1) is flagged. */
export const LOW_FIELD_SHARE = 0.9;

function fieldLabel(field: string): string {
  const parsed = ZListingField.safeParse(field);
  return parsed.success ? LISTING_FIELD_LABELS[parsed.data] : field;
}

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

function Layouts({ health }: { health: TStoreHealth }) {
  return (
    <div className="flex flex-wrap gap-2" data-testid="store-health-layouts">
      {health.byLayout.map((l) => (
        <Badge
          key={l.layout}
          variant={l.layout === 'unknown' ? 'destructive' : 'secondary'}
          className="gap-1.5"
        >
          {LAYOUT_NAMES[l.layout] ?? l.layout}
          <span className="tabular-nums">{l.reads}</span>
        </Badge>
      ))}
    </div>
  );
}

function Fields({ health }: { health: TStoreHealth }) {
  const fields = [...health.fields].sort((a, b) => a.share - b.share);
  return (
    <ul className="grid gap-x-6 gap-y-1.5 sm:grid-cols-2" data-testid="store-health-fields">
      {fields.map((f) => (
        <li key={f.field} className="flex items-center gap-2 text-sm">
          <span className="w-32 shrink-0 truncate" title={f.field}>
            {fieldLabel(f.field)}
          </span>
          <span className="h-1.5 flex-1 overflow-hidden rounded-full bg-muted" aria-hidden>
            <span
              className={cn(
                'block h-full rounded-full',
                f.share < LOW_FIELD_SHARE ? 'bg-warning' : 'bg-success',
              )}
              style={{ width: percent(f.share) }}
            />
          </span>
          <span
            className={cn(
              'w-24 shrink-0 text-right text-xs tabular-nums',
              f.share < LOW_FIELD_SHARE ? 'text-warning-foreground' : 'text-muted-foreground',
            )}
          >
            {percent(f.share)} of {f.expected}
          </span>
        </li>
      ))}
    </ul>
  );
}

function Failures({ health }: { health: TStoreHealth }) {
  if (health.failures.length === 0) {
    return <p className="text-sm text-muted-foreground">No failed store reads.</p>;
  }
  return (
    <Table data-testid="store-health-failures">
      <TableHeader>
        <TableRow>
          <TableHead>App</TableHead>
          <TableHead>What failed</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {health.failures.map((f, i) => (
          <TableRow key={`${f.appId}-${f.storefront}-${f.readAt}-${i}`}>
            <TableCell className="max-w-52 align-top whitespace-normal">
              <p className="truncate font-medium">{f.appName ?? `App ${f.appId}`}</p>
              <p className="text-xs text-muted-foreground">
                id{f.appId} · {f.storefront.toUpperCase()} · <AdminTime iso={f.readAt} />
              </p>
            </TableCell>
            <TableCell className="align-top text-sm whitespace-normal">
              <p className="break-words">{f.error}</p>
              {f.missingFields.length > 0 && (
                <p className="text-xs text-muted-foreground">
                  {LAYOUT_NAMES[f.layout] ?? f.layout}: {f.missingFields.length} fields not read
                </p>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * The keyword search reads' empty-answer alarm (docs/product.md#keyword-ranks): while it is
 * raised, when and why, and what it paused (the keyword rank rounds, with how many tracked
 * terms wait and how many answered empty); otherwise one line saying the search reads answer,
 * with when the last alarm was cleared.
 */
export function KeywordSearchAlarm({ status }: { status: TStoreHealth['keywordSearch'] }) {
  const alarm = status.alarm;
  if (!alarm) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="keyword-alarm-clear">
        Keyword search reads: answering with results
        {status.lastClearedAt ? (
          <>
            {' '}
            (last empty-answer alarm cleared <AdminTime iso={status.lastClearedAt} />
            ).
          </>
        ) : (
          '; no empty-answer alarm raised.'
        )}
      </p>
    );
  }
  return (
    <div
      role="alert"
      className="flex gap-3 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2.5 text-sm"
      data-testid="keyword-alarm"
    >
      <PauseCircle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-medium">
          Keyword rank reads paused: search answers went empty (raised{' '}
          <AdminTime iso={alarm.raisedAt} />)
        </p>
        <p className="break-words">{alarm.detail}</p>
        <p className="text-muted-foreground">
          Paused: the keyword rank rounds. {alarm.pausedTerms}{' '}
          {alarm.pausedTerms === 1 ? 'tracked term waits' : 'tracked terms wait'} for a read;{' '}
          {alarm.suspectTerms} {alarm.suspectTerms === 1 ? 'term' : 'terms'} answered empty.{' '}
          {alarm.suspectTerms > 0
            ? 'One of those is read again each round, and the alarm clears when it answers with results.'
            : 'The alarm clears when a read answers with results again.'}{' '}
          No app is recorded as unranked meanwhile.
        </p>
      </div>
    </div>
  );
}

/**
 * Store data health: the store reader's drift alarm over the last 24 hours. Store reads per
 * product page layout (an "unknown layout" means Apple changed the page beyond what the
 * parsers recognise), the share of pages that gave each field their layout carries (a falling
 * share means a field moved), the latest failed reads with app and storefront, and the
 * keyword search reads' empty-answer alarm ({@link KeywordSearchAlarm}), shown first.
 */
export function StoreHealthCard({ adminCode }: { adminCode: string }) {
  const health = useQuery(adminStoreHealthQuery(adminCode));
  return (
    <Card data-testid="store-health-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Activity className="size-4 text-primary" /> Store data health
        </CardTitle>
        <CardDescription>
          App Store reads of the last {health.data?.hours ?? 24} hours: the page layouts read, how
          often each field was found on the page, the latest failures, and whether keyword search
          reads answer.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {health.isPending ? (
          <LoadingRows />
        ) : health.isError ? (
          <ErrorState
            error={health.error}
            what="the store data health"
            onRetry={() => void health.refetch()}
          />
        ) : health.data.reads === 0 ? (
          <div className="flex flex-col gap-4">
            <KeywordSearchAlarm status={health.data.keywordSearch} />
            <EmptyState text="No store reads in the last 24 hours." />
          </div>
        ) : (
          <div className="flex flex-col gap-5">
            <KeywordSearchAlarm status={health.data.keywordSearch} />
            <div className="flex flex-col gap-2">
              <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                Reads per layout ({health.data.reads})
              </p>
              <Layouts health={health.data} />
            </div>
            {health.data.fields.length > 0 && (
              <div className="flex flex-col gap-2">
                <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                  Fields found on the page
                </p>
                <Fields health={health.data} />
              </div>
            )}
            <div className="flex flex-col gap-2">
              <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                Latest failures
              </p>
              <Failures health={health.data} />
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
