import { formatCount } from '@aso/analytics';
import { FlaskConical, Loader2, Upload } from 'lucide-react';
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
import type { TUploadSlot } from './csv-file.validation';
import { CsvUploadWidget } from './csv-upload-widget';
import { fetchSampleExports, uploadCsvFiles } from './dashboard.api';
import { hideUploadPanel, openDataset } from './dashboard.store';

/** Toast texts of docs/product.md#error-catalogue ("Upload fails"). */
export const UPLOAD_TEXTS = {
  mergedTitle: 'Files Merged Successfully',
  uploadedTitle: 'Files Uploaded',
  failedTitle: 'Upload Failed',
  failedFallback: 'Failed to upload files',
  networkError: 'Network error occurred during upload',
} as const;

/**
 * The upload panel of the dashboard tab (docs/product.md#upload-widgets and
 * #states-and-transitions): the conversion and redownloads widgets and 'upload CSV files', and
 * 'try it with sample exports', which sends the project's constructed sample exports through
 * the same upload. A successful merge opens the new dataset and hides the panel.
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

  const upload = async (sample: boolean) => {
    setBusy(true);
    try {
      const sent = sample ? await fetchSampleExports() : files;
      const merged = await uploadCsvFiles(sent);
      const both = Boolean(sent.conversionCSV && sent.redownloadsCSV);
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
          Export the conversion data and the redownloads data from App Store Connect (Analytics, by
          day, by source type), then upload both files to build the dashboard.
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
        <div
          className="mr-auto flex min-w-0 flex-col gap-1 text-xs text-muted-foreground sm:max-w-sm"
          data-testid="sample-exports"
        >
          <Button
            variant="link"
            className="h-auto justify-start p-0 text-sm"
            onClick={() => void upload(true)}
            disabled={busy}
            focusableWhenDisabled
          >
            <FlaskConical /> try it with sample exports
          </Button>
          <span>Constructed data of an invented app, not real App Store Connect figures.</span>
        </div>
        {canCancel && (
          <Button variant="ghost" onClick={hideUploadPanel} disabled={busy}>
            back to dashboard
          </Button>
        )}
        <Button
          onClick={() => void upload(false)}
          disabled={busy || chosen === 0}
          focusableWhenDisabled
        >
          {busy ? <Loader2 className="animate-spin" /> : <Upload />}
          upload CSV files
        </Button>
      </CardFooter>
    </Card>
  );
}
