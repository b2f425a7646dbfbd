import { useQuery } from '@tanstack/react-query';
import { FileDownIcon, Loader2Icon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ZReportPdfStatus } from '@aso/contracts';
import { announce } from '@/components/ui/live-announcer';
import { Button } from '@/components/ui/button';
import { dismissToasts, toast } from '@/components/ui/use-toast';
import { apiFetch, serverMessage } from '@/lib/api';
import { fetchDownload, saveBlob } from '@/lib/download';
import { pdfStatusPath, preparingLabel } from '@/lib/pdf-status.rules';

/** Seconds since `busy` turned true, counted while it is (0 otherwise). */
function useElapsedSeconds(busy: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!busy) return;
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => {
      clearInterval(timer);
      setSeconds(0);
    };
  }, [busy]);
  return seconds;
}

/** How often the button asks where its PDF stands while it waits (ms). */
const STATUS_POLL_MS = 1_500;

/**
 * Renders ahead of the PDF at `path` while `busy` (`GET .../report-status` every
 * {@link STATUS_POLL_MS}); 0 when none, not known yet, or not busy. A status that fails is
 * only not shown: the download itself reports errors.
 */
function useQueuedBehind(path: string, busy: boolean): number {
  const status = useQuery({
    queryKey: ['report-status', path],
    queryFn: ({ signal }) =>
      apiFetch(pdfStatusPath(path), { schema: ZReportPdfStatus, signal, timeoutMs: 5_000 }),
    enabled: busy,
    refetchInterval: busy ? STATUS_POLL_MS : false,
    gcTime: 0,
    retry: false,
  });
  return busy && status.data?.state === 'queued' ? status.data.queuedBehind : 0;
}

/**
 * 'Download PDF': fetches the report PDF at `path` (rendered on the server when the audit or
 * dashboard changed since the last one, a few seconds; the stored file at once otherwise) and
 * saves it. While it waits the button counts the seconds and, when the render waits its turn
 * behind others (renders are queued per user, users in turn), how many renders are ahead; screen
 * readers are told when the PDF starts and is ready.
 */
export function DownloadPdfButton({
  path,
  fallbackName,
  size,
  disabled,
}: {
  path: string;
  fallbackName: string;
  size?: 'sm' | 'default';
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const seconds = useElapsedSeconds(busy);
  const queuedBehind = useQueuedBehind(path, busy);
  const download = async () => {
    setBusy(true);
    announce('Preparing the PDF');
    try {
      const { blob, fileName } = await fetchDownload(path, fallbackName);
      saveBlob(blob, fileName);
      dismissToasts(`pdf:${path}`);
      announce('The PDF is ready');
    } catch (err) {
      toast({
        variant: 'destructive',
        title: 'Download Failed',
        description: serverMessage(err, 'The PDF could not be prepared. Please try again.'),
        topic: `pdf:${path}`,
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="outline"
      size={size}
      disabled={busy || disabled}
      focusableWhenDisabled
      onClick={() => void download()}
      data-testid="download-pdf"
    >
      {busy ? <Loader2Icon className="animate-spin" /> : <FileDownIcon />}
      {busy ? preparingLabel(seconds, queuedBehind) : 'Download PDF'}
    </Button>
  );
}
