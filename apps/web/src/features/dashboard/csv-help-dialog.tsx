import type { RefObject } from 'react';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import type { TUploadSlot } from './csv-file.validation';

/**
 * Title of the help dialog (docs/product.md#upload-widgets): the exports come from App Store
 * Connect, named as such (the only console this iOS product reads).
 */
export const CSV_HELP_TITLE = 'How to export a CSV file from App Store Connect';

/** The one step that differs between the two exports (docs/product.md#upload-widgets). */
const VIEW_STEP: Record<TUploadSlot, string> = {
  conversionCSV: 'Choose the saved view Conversion Rate.',
  redownloadsCSV: 'Choose Redownloads on the left, with comparison set to None.',
};

/** The export steps of docs/product.md#upload-widgets for one file, in order. */
export function csvHelpSteps(slot: TUploadSlot): string[] {
  return [
    'Sign in to App Store Connect (appstoreconnect.apple.com) and open the Analytics tab.',
    'Select the app.',
    'Choose Metrics.',
    'Set the time range.',
    VIEW_STEP[slot],
    'Break the data down by day.',
    'Filter By Source Type and pick the region.',
    'Use the three-dot menu and choose Export as CSV.',
  ];
}

/**
 * The help dialog of one upload widget, open while `open` (loaded on demand by
 * `csv-help-button.tsx`, whose button opens it); closing gives the focus back to `returnFocus`.
 */
export function CsvHelpDialog({
  slot,
  fileLabel,
  open,
  onOpenChange,
  returnFocus,
}: {
  slot: TUploadSlot;
  fileLabel: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocus: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-h-[90vh] overflow-y-auto sm:max-w-2xl"
        // Without a Radix trigger the dialog would give the focus back to nothing.
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocus.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{CSV_HELP_TITLE}</DialogTitle>
          <DialogDescription>Steps for the {fileLabel} file.</DialogDescription>
        </DialogHeader>
        <ol className="flex flex-col gap-2 text-sm">
          {csvHelpSteps(slot).map((step, index) => (
            <li key={step} className="flex items-start gap-3">
              <span className="mt-px flex size-5 shrink-0 items-center justify-center rounded-full bg-primary/10 text-[11px] font-semibold text-primary">
                {index + 1}
              </span>
              <span>{step}</span>
            </li>
          ))}
        </ol>
        <figure className="flex flex-col gap-2">
          <img
            src="/help/csv-export-example.svg"
            alt="Illustration of App Store Connect Analytics: the metric view, the By Source Type filter and the three-dot menu open on Export as CSV"
            className="w-full rounded-lg border bg-muted/30"
            width={720}
            height={400}
          />
          <figcaption className="text-xs text-muted-foreground">
            Example (an illustration, not a screenshot): the three-dot menu with Export as CSV.
          </figcaption>
        </figure>
      </DialogContent>
    </Dialog>
  );
}
