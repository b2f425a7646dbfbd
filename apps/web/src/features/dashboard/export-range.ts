/**
 * 'export CSV' of the dashboard (docs/product.md#dashboard-tab), for an upload's dataset and for
 * imported App Store Connect figures alike: the rows of the applied range saved as a file, with
 * the 'CSV Exported' or 'Export Failed' toast.
 */
import type { TDatedRow } from '@aso/analytics';
import type { TDateRange } from '@aso/contracts';
import { toast } from '@/components/ui/use-toast';
import { saveBlob } from '@/lib/file-download.helpers';
import { rangeLabel } from './date-range.helpers';

/**
 * Saves `entries` (columns `headers`) as `<app>-<territory>-<start>_<end>.csv`. The CSV writer
 * is loaded on the first export: most visits never export.
 */
export async function exportRange(
  name: { appName: string | null; territory: string | null },
  headers: string[],
  entries: readonly TDatedRow[],
  range: TDateRange,
): Promise<void> {
  let csv: string;
  let fileName: string;
  try {
    const { buildExportCsv, exportFileName } = await import('./export-csv');
    csv = buildExportCsv(headers, entries);
    fileName = exportFileName(name.appName, name.territory, range);
  } catch {
    toast({
      variant: 'destructive',
      title: 'Export Failed',
      description: 'Failed to export the CSV. Please try again.',
    });
    return;
  }
  saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), fileName);
  toast({ title: 'CSV Exported', description: `${entries.length} rows of ${rangeLabel(range)}` });
}
