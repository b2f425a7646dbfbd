import { formatCount } from '@aso/analytics';
import { Loader2, Upload } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { ApiError, serverMessage } from '@/lib/api';
import type { TUploadSlot } from './csv-file.rules';
import { CsvUploadWidget } from './csv-upload-widget';
import { uploadCsvFiles } from './dashboard.api';
import { hideUploadPanel, openDataset } from './dashboard.store';

/** Toast texts of spec section 8 ("Upload fails"). */
export const UPLOAD_TEXTS = {
  mergedTitle: 'Files Merged Successfully',
  uploadedTitle: 'Files Uploaded',
  failedTitle: 'Upload Failed',
  failedFallback: 'Failed to upload files',
  networkError: 'Network error occurred during upload',
} as const;

/**
 * The upload panel of the dashboard tab (spec sections 2 and 4): the conversion and
 * redownloads widgets and 'upload CSV files'. A successful merge opens the new dataset and
 * hides the panel.
 */
export function UploadPanel({ canCancel }: { canCancel: boolean }) {
  const [files, setFiles] = useState<Partial<Record<TUploadSlot, File>>>({});
  const [busy, setBusy] = useState(false);
  const chosen = Object.values(files).filter(Boolean).length;

  const setFile = (slot: TUploadSlot) => (file: File | null) =>
    setFiles((prev) => {
      const next = { ...prev };
      if (file) next[slot] = file;
      else delete next[slot];
      return next;
    });

  const upload = async () => {
    setBusy(true);
    try {
      const merged = await uploadCsvFiles(files);
      const both = Boolean(files.conversionCSV && files.redownloadsCSV);
      toast({
        title: both ? UPLOAD_TEXTS.mergedTitle : UPLOAD_TEXTS.uploadedTitle,
        description: [`Total rows: ${formatCount(merged.totalRows)}`, ...merged.notices].join(' '),
      });
      setFiles({});
      openDataset({
        downloadId: merged.downloadId,
        appName: merged.appName,
        territory: merged.territory,
        headers: merged.headers,
        totalRows: merged.totalRows,
        savedId: null,
        name: null,
        notices: merged.notices,
      });
    } catch (err) {
      const network = !(err instanceof ApiError);
      toast({
        variant: 'destructive',
        title: UPLOAD_TEXTS.failedTitle,
        description: network
          ? UPLOAD_TEXTS.networkError
          : serverMessage(err, UPLOAD_TEXTS.failedFallback),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="upload-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Upload className="size-4 text-primary" /> Upload CSV files
        </CardTitle>
        <CardDescription>
          Export the conversion data and the redownloads data from the provider&apos;s analytics
          console, then upload both files to build the dashboard.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2">
        <CsvUploadWidget
          slot="conversionCSV"
          label="Conversion data"
          hint="Saved view Conversion Rate, by day, by source type"
          file={files.conversionCSV ?? null}
          onFileChange={setFile('conversionCSV')}
          disabled={busy}
        />
        <CsvUploadWidget
          slot="redownloadsCSV"
          label="Redownloads data"
          hint="Redownloads, comparison None, by day, by source type"
          file={files.redownloadsCSV ?? null}
          onFileChange={setFile('redownloadsCSV')}
          disabled={busy}
        />
      </CardContent>
      <CardFooter className="flex-wrap justify-end gap-2 border-t pt-5">
        {canCancel && (
          <Button variant="ghost" onClick={hideUploadPanel} disabled={busy}>
            back to dashboard
          </Button>
        )}
        <Button onClick={() => void upload()} disabled={busy || chosen === 0} focusableWhenDisabled>
          {busy ? <Loader2 className="animate-spin" /> : <Upload />}
          upload CSV files
        </Button>
      </CardFooter>
    </Card>
  );
}
