import { useInfiniteQuery } from '@tanstack/react-query';
import type { TAuditHistoryItem } from '@aso/contracts';
import { History, MessageSquareText } from 'lucide-react';
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
import { LoadMore } from '@/components/load-more';
import { pageItems } from '@/lib/pages';
import { codeTypeLabel } from './admin-form.validation';
import { adminAuditHistoryQuery, adminFeedbacksQuery } from './admin.api';
import { EmptyState, ErrorState, LoadingRows } from '@/components/list-states';
import { AdminTime } from './section-state';

/**
 * Model tokens of an audit as the history shows them: '1,234 (1,000 in / 234 out, 4 calls)';
 * '–' for an audit without model calls (heuristic provider, unfinished or older audits).
 */
export function tokensText(tokens: TAuditHistoryItem['tokens']): string {
  if (!tokens) return '–';
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(tokens.prompt + tokens.completion)} (${n(tokens.prompt)} in / ${n(tokens.completion)} out, ${tokens.calls} ${tokens.calls === 1 ? 'call' : 'calls'})`;
}

/**
 * Audit History (docs/product.md#admin-screen): app name, URL, access code, Admin/User and date,
 * newest first, plus the analysis provider and the tokens its model calls used.
 */
export function AuditHistoryCard({ adminCode }: { adminCode: string }) {
  const history = useInfiniteQuery(adminAuditHistoryQuery(adminCode));
  const items = pageItems(history.data, (page) => page);
  return (
    <Card data-testid="audit-history-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <History className="size-4 text-primary" /> Audit History
        </CardTitle>
        <CardDescription>
          Every audit started, newest first, with the access code it ran under.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {history.isPending ? (
          <LoadingRows rows={4} />
        ) : history.isError ? (
          <ErrorState
            error={history.error}
            what="the audit history"
            onRetry={() => void history.refetch()}
          />
        ) : !items?.length ? (
          <EmptyState text="No audits yet." />
        ) : (
          <>
            <div className="max-h-[28rem] overflow-y-auto">
              <Table>
                <TableHeader className="sticky top-0 bg-card">
                  <TableRow>
                    <TableHead>App name</TableHead>
                    <TableHead>URL</TableHead>
                    <TableHead>Access code</TableHead>
                    <TableHead>Type</TableHead>
                    <TableHead>Analysis</TableHead>
                    <TableHead>Model tokens</TableHead>
                    <TableHead>Date</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {items.map((item) => (
                    <TableRow key={item.id} data-testid="audit-history-row">
                      <TableCell
                        className="max-w-64 truncate font-medium"
                        title={item.appName ?? undefined}
                      >
                        {item.appName ?? 'Unknown app'}
                      </TableCell>
                      <TableCell className="max-w-72 truncate">
                        {/^https?:\/\//i.test(item.appStoreUrl) ? (
                          <a
                            href={item.appStoreUrl}
                            target="_blank"
                            rel="noreferrer noopener"
                            className="text-primary underline-offset-4 hover:underline"
                            title={item.appStoreUrl}
                          >
                            {item.appStoreUrl}
                          </a>
                        ) : (
                          <span title={item.appStoreUrl}>{item.appStoreUrl}</span>
                        )}
                      </TableCell>
                      <TableCell className="font-mono text-xs">{item.accessCode ?? '—'}</TableCell>
                      <TableCell>
                        <Badge variant={item.isAdminCode ? 'warning' : 'secondary'}>
                          {codeTypeLabel(item.isAdminCode)}
                        </Badge>
                      </TableCell>
                      <TableCell className="text-muted-foreground">
                        {item.provider ?? '–'}
                        {item.rulesVersion && (
                          <span className="block text-[11px]">rules {item.rulesVersion}</span>
                        )}
                      </TableCell>
                      <TableCell
                        className="text-xs whitespace-nowrap text-muted-foreground tabular-nums"
                        data-testid="audit-history-tokens"
                      >
                        {tokensText(item.tokens)}
                      </TableCell>
                      <TableCell className="text-muted-foreground">
                        <AdminTime iso={item.createdAt} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
            <LoadMore query={history} what="audits" shown={items.length} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** User Feedback (docs/product.md#admin-screen): app name, feedback text and date, newest first. */
export function FeedbackCard({ adminCode }: { adminCode: string }) {
  const feedbacks = useInfiniteQuery(adminFeedbacksQuery(adminCode));
  const entries = pageItems(feedbacks.data, (page) => page);
  return (
    <Card data-testid="feedback-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <MessageSquareText className="size-4 text-primary" /> User Feedback
        </CardTitle>
        <CardDescription>
          What users wrote in the feedback box of their audit results.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {feedbacks.isPending ? (
          <LoadingRows />
        ) : feedbacks.isError ? (
          <ErrorState
            error={feedbacks.error}
            what="feedback"
            onRetry={() => void feedbacks.refetch()}
          />
        ) : !entries?.length ? (
          <EmptyState text="No feedback yet." />
        ) : (
          <>
            <ul className="flex max-h-[28rem] flex-col gap-3 overflow-y-auto">
              {entries.map((f) => (
                <li
                  key={f.id}
                  className="rounded-lg border bg-muted/20 p-4"
                  data-testid="feedback-item"
                >
                  <div className="mb-1.5 flex flex-wrap items-center justify-between gap-2">
                    <span className="text-sm font-medium">{f.appName ?? 'Unknown app'}</span>
                    <span className="text-xs text-muted-foreground">
                      <AdminTime iso={f.createdAt} />
                    </span>
                  </div>
                  <p className="text-sm whitespace-pre-wrap text-foreground/90">{f.feedback}</p>
                </li>
              ))}
            </ul>
            <LoadMore query={feedbacks} what="feedback" shown={entries.length} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
