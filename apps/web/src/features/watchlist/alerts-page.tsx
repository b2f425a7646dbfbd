/**
 * Route `/alerts`: the notifications raised when a watched listing changed or a tracked
 * keyword's rank moved (newest first, unread ones marked, each opening the app's timeline),
 * and the webhook that can carry them to another tool. The sidebar shows the unread count.
 */
import { changeFieldLabel, rankLabel, type TNotification, type TWebhook } from '@aso/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BellIcon,
  CheckCheckIcon,
  Loader2Icon,
  SendIcon,
  Trash2Icon,
  WebhookIcon,
} from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { LoadMore } from '@/components/load-more';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { dismissToasts, toast } from '@/components/ui/use-toast';
import { EmptyState, ErrorState, LoadingRows } from '@/components/list-states';
import { serverMessage } from '@/lib/api';
import { pageItems } from '@/lib/pages';
import { cn } from '@/lib/utils';
import {
  NOTIFICATIONS_KEY,
  WEBHOOK_KEY,
  deleteWebhook,
  markNotificationsRead,
  notificationsQuery,
  saveWebhook,
  testWebhook,
  webhookQuery,
} from './watch.api';
import { ROLE_LABELS, formatDateTime, storefrontName, timelinePath } from './watch.helpers';
import { WatchScreen } from './watch-screen';

/** The alerts screen. */
export function AlertsPage() {
  return (
    <WatchScreen
      icon={BellIcon}
      title="Alerts"
      description="A notification each time a read finds that a watched listing changed or a tracked keyword's rank moved."
      testId="alerts-page"
    >
      <NotificationsCard />
      <WebhookCard />
    </WatchScreen>
  );
}

function NotificationsCard() {
  const queryClient = useQueryClient();
  const list = useInfiniteQuery(notificationsQuery());
  const items = pageItems(list.data, (page) => page.items);
  const markRead = useMutation({
    mutationFn: markNotificationsRead,
    onSuccess: () => {
      dismissToasts('mark-read');
      void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Update Failed',
        topic: 'mark-read',
        description: serverMessage(err, 'Could not mark the notifications read.'),
      }),
  });
  const unread = list.data?.pages[0]?.data.unread ?? 0;
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="flex flex-col gap-1.5">
          <CardTitle className="text-lg">
            Notifications{unread > 0 ? ` (${unread} unread)` : ''}
          </CardTitle>
          <CardDescription>
            Changes of the title, texts, media, events, version and price; large rank moves of
            tracked keywords, and moves into or out of the top 10 (ranks in the iTunes Search API
            order).
          </CardDescription>
        </div>
        {unread > 0 && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => markRead.mutate(undefined)}
            focusableWhenDisabled
            disabled={markRead.isPending}
            data-testid="mark-all-read"
          >
            <CheckCheckIcon /> mark all read
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <LoadingRows rows={3} />
        ) : list.isError ? (
          <ErrorState
            error={list.error}
            what="the notifications"
            onRetry={() => void list.refetch()}
          />
        ) : !items?.length ? (
          <EmptyState text="No notifications yet. When a watched listing changes, it shows here." />
        ) : (
          <>
            <ul className="flex flex-col divide-y" data-testid="notifications">
              {items.map((n) => (
                <NotificationRow
                  key={n.id}
                  notification={n}
                  onOpen={() => !n.readAt && markRead.mutate([n.id])}
                />
              ))}
            </ul>
            <LoadMore query={list} what="notifications" shown={items.length} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function NotificationRow({
  notification: n,
  onOpen,
}: {
  notification: TNotification;
  onOpen: () => void;
}) {
  const unread = n.readAt === null;
  const name = n.appName ?? `App ${n.appId}`;
  return (
    <li
      className={cn('flex items-start gap-3 py-3', unread && 'font-medium')}
      data-testid="notification"
      data-unread={unread}
    >
      <span
        className={cn(
          'mt-1.5 size-2 shrink-0 rounded-full',
          unread ? 'bg-primary' : 'bg-transparent',
        )}
        aria-hidden
      />
      <div className="min-w-0 flex-1">
        <p className="text-sm break-words">
          <Link to={timelinePath(n)} onClick={onOpen} className="underline underline-offset-4">
            {name}
          </Link>
          {n.kind === 'keyword' && n.rankMove ? (
            <span data-testid="rank-move">
              <span className="font-normal text-muted-foreground">:</span> “{n.rankMove.term}”:{' '}
              {rankLabel(n.rankMove.from)} → {rankLabel(n.rankMove.to)} in{' '}
              {storefrontName(n.rankMove.storefront)}
            </span>
          ) : (
            <>
              {' '}
              <span className="font-normal text-muted-foreground">
                ({ROLE_LABELS[n.role]}, {storefrontName(n.storefront)}) changed:
              </span>{' '}
              {n.fields.map(changeFieldLabel).join(', ')}
            </>
          )}
        </p>
        <p className="text-xs font-normal text-muted-foreground">
          {formatDateTime(n.detectedAt)}
          {unread && <span className="sr-only"> · unread</span>}
        </p>
      </div>
      {unread && <Badge className="shrink-0">new</Badge>}
    </li>
  );
}

function WebhookCard() {
  const queryClient = useQueryClient();
  const webhook = useQuery(webhookQuery());
  return (
    <Card data-testid="webhook-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <WebhookIcon className="size-5 text-primary" aria-hidden /> Webhook
        </CardTitle>
        <CardDescription>
          Optional: each change is also POSTed as JSON to this URL, signed with HMAC-SHA256 in the
          X-Aso-Signature header. Public http or https addresses only.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {webhook.isPending ? (
          <LoadingRows rows={1} />
        ) : webhook.isError ? (
          <ErrorState
            error={webhook.error}
            what="the webhook"
            onRetry={() => void webhook.refetch()}
          />
        ) : (
          <WebhookForm
            key={webhook.data?.url ?? ''}
            current={webhook.data}
            onSaved={(saved) => queryClient.setQueryData(WEBHOOK_KEY, saved)}
          />
        )}
      </CardContent>
    </Card>
  );
}

function WebhookForm({
  current,
  onSaved,
}: {
  current: TWebhook | null;
  onSaved: (saved: TWebhook | null) => void;
}) {
  const queryClient = useQueryClient();
  const urlId = useId();
  const errorId = useId();
  const [url, setUrl] = useState(current?.url ?? '');
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: saveWebhook,
    onSuccess: (saved) => {
      setError(null);
      setSecret(saved.secret ?? null);
      onSaved({ ...saved, secret: undefined });
      toast({ title: 'Webhook Saved', description: `Changes will be sent to ${saved.url}.` });
    },
    onError: (err) => setError(serverMessage(err, 'Could not save the webhook. Please try again.')),
  });
  const remove = useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => {
      onSaved(null);
      toast({ title: 'Webhook Removed', description: 'Changes are no longer sent anywhere.' });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Remove Failed',
        description: serverMessage(err, 'Could not remove the webhook.'),
      }),
  });
  const test = useMutation({
    mutationFn: testWebhook,
    onSuccess: () =>
      toast({
        title: 'Test Queued',
        description: 'A signed test event is on its way; its delivery shows below.',
      }),
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Test Failed',
        description: serverMessage(err, 'Could not send a test event.'),
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: WEBHOOK_KEY }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (url.trim() === '') {
      setError('Enter the URL to send changes to.');
      return;
    }
    save.mutate(url.trim());
  };
  const last = current?.deliveries[0] ?? null;
  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} noValidate className="flex flex-col gap-2" data-testid="webhook-form">
        <Label htmlFor={urlId}>Webhook URL</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={urlId}
            type="url"
            inputMode="url"
            placeholder="https://hooks.example.com/aso"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setError(null);
            }}
            aria-invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
          />
          <div className="flex flex-wrap gap-2">
            <Button
              type="submit"
              focusableWhenDisabled
              disabled={save.isPending}
              data-testid="webhook-save"
            >
              {save.isPending && <Loader2Icon className="animate-spin" />} save
            </Button>
            {current && (
              <Button
                type="button"
                variant="outline"
                onClick={() => test.mutate()}
                focusableWhenDisabled
                disabled={test.isPending}
              >
                <SendIcon /> send a test
              </Button>
            )}
            {current && (
              <Button
                type="button"
                variant="outline"
                onClick={() => remove.mutate()}
                focusableWhenDisabled
                disabled={remove.isPending}
                aria-label="Remove the webhook"
              >
                <Trash2Icon /> remove
              </Button>
            )}
          </div>
        </div>
        {error && (
          <p
            id={errorId}
            role="alert"
            className="text-sm text-destructive"
            data-testid="webhook-error"
          >
            {error}
          </p>
        )}
      </form>
      {secret && (
        <div
          role="status"
          className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm"
        >
          <p className="font-medium">Signing secret (shown once, copy it now):</p>
          <code className="break-all" data-testid="webhook-secret">
            {secret}
          </code>
        </div>
      )}
      {current && (
        <p className="text-xs text-muted-foreground" data-testid="webhook-status">
          Secret ends in …{current.secretHint}.{' '}
          {last
            ? `Last delivery ${formatDateTime(last.createdAt)}: ${last.status}${last.lastError ? ` (${last.lastError})` : ''}.`
            : 'Nothing sent yet.'}
        </p>
      )}
    </div>
  );
}
