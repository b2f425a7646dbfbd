import { FileDownIcon, Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { fetchDownload, saveBlob } from '@/lib/download';

/**
 * 'Download PDF': fetches the report PDF at `path` (rendered on the server when the audit or
 * dashboard changed since the last one, which may take a few seconds) and saves it.
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
  const download = async () => {
    setBusy(true);
    try {
      const { blob, fileName } = await fetchDownload(path, fallbackName);
      saveBlob(blob, fileName);
    } catch (err) {
      toast({
        variant: 'destructive',
        title: 'Download Failed',
        description: serverMessage(err, 'The PDF could not be prepared. Please try again.'),
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
      {busy ? 'preparing PDF...' : 'Download PDF'}
    </Button>
  );
}
