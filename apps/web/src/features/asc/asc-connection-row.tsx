import type { TAscConnection, TAscImport } from '@aso/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  AlertTriangleIcon,
  CheckCircle2Icon,
  BarChart3Icon,
  DownloadCloudIcon,
  InfoIcon,
  Loader2Icon,
  Trash2Icon,
} from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { openAscDashboard } from '@/features/dashboard/dashboard.store';
import { useMainScreen } from '@/features/shell/main-screen.context';
import { formatDateTime } from '@/features/watchlist/watch.helpers';
import { serverMessage } from '@/lib/api';
import { ASC_CONNECTIONS_KEY, ascMetricsKey, deleteAscConnection, startAscImport } from './asc.api';

/** Whether an import is still going. */
export const isOpen = (i: TAscImport | undefined) =>
  i?.state === 'queued' || i?.state === 'running';

/**
 * One connected key of the settings screen: the apps it sees, each with "import now", its last
 * import's state and "open dashboard"; and the key's removal, confirmed first.
 */
export function ConnectionRow({ connection }: { connection: TAscConnection }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteAscConnection(connection.id),
    onSuccess: () => {
      toast({
        title: 'Key removed',
        description: `${connection.name} and its imported data are deleted.`,
      });
      void queryClient.invalidateQueries({ queryKey: ASC_CONNECTIONS_KEY });
      // Its figures are gone too: a dashboard on them must not show what this visit read.
      queryClient.removeQueries({ queryKey: ascMetricsKey(connection.id) });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Remove Failed',
        description: serverMessage(err, 'Could not remove the key. Please try again.'),
      }),
  });
  return (
    <li className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0" data-testid="asc-connection">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium break-words">{connection.name}</p>
          <p className="text-xs break-all text-muted-foreground">
            Key {connection.keyId} · issuer {connection.issuerId} · added{' '}
            {formatDateTime(connection.createdAt)}
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => setConfirming(true)}
          focusableWhenDisabled
          disabled={remove.isPending}
          aria-label={`Remove the key ${connection.name}`}
        >
          <Trash2Icon /> remove
        </Button>
      </div>
      {connection.apps.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          This key sees no app. Check its access in App Store Connect (Users and Access).
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {connection.apps.map((app) => (
            <AppRow
              key={app.appId}
              connectionId={connection.id}
              app={app}
              last={connection.imports?.find((i) => i.appId === app.appId)}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        description={
          <>The key {connection.name} is erased, with every figure imported through it.</>
        }
        confirmLabel="Remove"
        onConfirm={() => remove.mutate()}
      />
    </li>
  );
}

function AppRow({
  connectionId,
  app,
  last,
}: {
  connectionId: string;
  app: TAscConnection['apps'][number];
  last: TAscImport | undefined;
}) {
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: () => startAscImport(connectionId, app.appId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ASC_CONNECTIONS_KEY }),
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Import Failed',
        description: serverMessage(err, 'Could not start the import. Please try again.'),
      }),
  });
  const running = isOpen(last) || start.isPending;
  const { setTab } = useMainScreen();
  const imported = last !== undefined && (last.state === 'done' || last.instances > 0);
  const openOnDashboard = () => {
    openAscDashboard({ connectionId, appId: app.appId, appName: app.name });
    setTab('dashboard');
  };
  return (
    <li
      className="flex flex-col gap-2 rounded-md border p-3"
      data-testid="asc-app"
      data-app-id={app.appId}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium break-words">{app.name}</p>
          <p className="text-xs break-all text-muted-foreground">
            {app.bundleId} · Apple ID {app.appId}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {imported && (
            <Button
              variant="outline"
              size="sm"
              onClick={openOnDashboard}
              aria-label={`open dashboard: ${app.name}`}
              data-testid="asc-open-dashboard"
            >
              <BarChart3Icon /> open dashboard
            </Button>
          )}
          <Button
            size="sm"
            onClick={() => start.mutate()}
            focusableWhenDisabled
            disabled={running}
            aria-label={`${running ? 'importing' : 'import now'}: ${app.name}`}
            data-testid="asc-import"
          >
            {running ? <Loader2Icon className="animate-spin" /> : <DownloadCloudIcon />}
            {running ? 'importing...' : 'import now'}
          </Button>
        </div>
      </div>
      <ImportState last={last} />
    </li>
  );
}

function ImportState({ last }: { last: TAscImport | undefined }) {
  if (!last) {
    return (
      <p className="text-xs text-muted-foreground" data-testid="asc-import-state">
        Not imported yet. The first import asks Apple for the reports; Apple makes the first daily
        report 24-48 hours later.
      </p>
    );
  }
  const counts = `${last.instances} daily report${last.instances === 1 ? '' : 's'}, ${last.segments} file${last.segments === 1 ? '' : 's'}, ${last.rows.toLocaleString('en-US')} figures`;
  return (
    <div
      className="flex flex-col gap-1 text-xs"
      data-testid="asc-import-state"
      data-state={last.state}
      role="status"
    >
      <p className="flex flex-wrap items-center gap-2">
        {last.state === 'done' ? (
          <Badge variant="secondary">
            <CheckCircle2Icon aria-hidden /> imported
          </Badge>
        ) : last.state === 'failed' ? (
          <Badge variant="destructive">
            <AlertTriangleIcon aria-hidden /> failed
          </Badge>
        ) : (
          <Badge variant="outline">{last.state === 'queued' ? 'queued' : 'importing'}</Badge>
        )}
        <span className="text-muted-foreground">
          {last.state === 'queued'
            ? `Queued ${formatDateTime(last.createdAt)}`
            : last.state === 'running'
              ? `So far: ${counts}`
              : `${formatDateTime(last.finishedAt ?? last.createdAt)}: ${last.instances === 0 && last.state === 'done' ? 'nothing new' : counts}`}
        </span>
      </p>
      {last.notice && (
        <p
          className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/5 px-3 py-2 text-sm"
          data-testid="asc-import-notice"
        >
          <InfoIcon className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
          <span>{last.notice}</span>
        </p>
      )}
      {last.error && (
        <p
          className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm"
          data-testid="asc-import-error"
        >
          <AlertTriangleIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
          <span>{last.error}</span>
        </p>
      )}
    </div>
  );
}
