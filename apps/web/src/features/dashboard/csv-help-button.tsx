import { CircleHelp } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { TUploadSlot } from './csv-file.validation';

/** The export help (steps and an illustration), fetched the first time someone opens it. */
const CsvHelpDialog = lazy(() =>
  import('./csv-help-dialog').then((m) => ({ default: m.CsvHelpDialog })),
);

/**
 * The small '?' button of one upload widget and the help dialog it opens
 * (docs/product.md#upload-widgets). The dialog's code is loaded on the first click: most
 * visits to the dashboard never open it.
 */
export function CsvHelpButton({ slot, fileLabel }: { slot: TUploadSlot; fileLabel: string }) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={button}
        type="button"
        variant="ghost"
        size="icon"
        className="size-7 text-muted-foreground"
        aria-label={`How to export the ${fileLabel} file`}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <CircleHelp />
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <CsvHelpDialog
            slot={slot}
            fileLabel={fileLabel}
            open={open}
            onOpenChange={setOpen}
            returnFocus={button}
          />
        </Suspense>
      )}
    </>
  );
}
