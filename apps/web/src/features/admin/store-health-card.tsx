import { useQuery } from '@tanstack/react-query';
import { Activity } from 'lucide-react';
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
import { formatDateTime } from './admin-form.rules';
import { adminStoreHealthQuery } from './admin.api';
import { EmptyState, ErrorState, LoadingRows } from './section-state';

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
                id{f.appId} · {f.storefront.toUpperCase()} · {formatDateTime(f.readAt)}
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
 * Store data health: the store reader's drift alarm over the last 24 hours. Store reads per
 * product page layout (an "unknown layout" means Apple changed the page beyond what the
 * parsers recognise), the share of pages that gave each field their layout carries (a falling
 * share means a field moved), and the latest failed reads with app and storefront.
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
          often each field was found on the page, and the latest failures.
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
          <EmptyState text="No store reads in the last 24 hours." />
        ) : (
          <div className="flex flex-col gap-5">
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
