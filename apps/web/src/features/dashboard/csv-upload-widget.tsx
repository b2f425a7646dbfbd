import { formatFileSize } from '@aso/analytics';
import { FileSpreadsheet, UploadCloud, X } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { validateCsvFile, type TUploadSlot } from './csv-file.validation';
import { CsvHelpButton } from './csv-help-button';

/** Props of {@link CsvUploadWidget}. */
export interface TCsvUploadWidgetProps {
  slot: TUploadSlot;
  /** e.g. 'Conversion data'. */
  label: string;
  /** One line under the label. */
  hint: string;
  file: File | null;
  onFileChange: (file: File | null) => void;
  disabled?: boolean;
}

/**
 * One CSV upload area (docs/product.md#upload-widgets, #states-and-transitions and
 * #validation-rules): drop a file or choose one; shows the chosen file's name and size
 * (Bytes/KB/MB, two decimals) with a remove button; refuses a non-.csv name or a file over 20 MB
 * with the documented message and clears that selection; carries the export help dialog. Removing
 * the file gives the focus back to the file field.
 */
export function CsvUploadWidget({
  slot,
  label,
  hint,
  file,
  onFileChange,
  disabled,
}: TCsvUploadWidgetProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const take = (picked: File | undefined) => {
    if (!picked) return;
    const problem = validateCsvFile(picked);
    // A rejected selection is cleared (docs/product.md#validation-rules), including the input's own
    // value, so choosing the same file again fires a change event.
    if (inputRef.current) inputRef.current.value = '';
    if (problem) {
      setError(problem);
      onFileChange(null);
      return;
    }
    setError(null);
    onFileChange(picked);
  };

  const remove = () => {
    setError(null);
    if (inputRef.current) inputRef.current.value = '';
    onFileChange(null);
    // The remove button goes with the file: the focus moves to the file field it left, so the
    // drop zone that comes back shows it.
    inputRef.current?.focus();
  };

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    take(event.dataTransfer.files[0]);
  };

  return (
    <div className="flex min-w-0 flex-col gap-2" data-testid={`upload-${slot}`}>
      <div className="flex items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="text-sm font-medium">{label}</p>
          <p className="text-xs text-muted-foreground">{hint}</p>
        </div>
        <CsvHelpButton slot={slot} fileLabel={label.toLowerCase()} />
      </div>

      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept=".csv,text/csv"
        // Visually hidden but in the Tab order (Enter / Space open the file chooser): the drop
        // zone or the chosen file's row after it shows its focus.
        className="peer sr-only"
        disabled={disabled}
        aria-label={`Choose the ${label.toLowerCase()} CSV file`}
        onChange={(event) => take(event.target.files?.[0])}
      />

      {file ? (
        <div className="flex items-center gap-3 rounded-lg border bg-muted/30 px-3 py-3 peer-focus-visible:border-ring peer-focus-visible:ring-[3px] peer-focus-visible:ring-ring/50">
          <div className="flex size-9 shrink-0 items-center justify-center rounded-md bg-success/15 text-success">
            <FileSpreadsheet className="size-5" />
          </div>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium" data-testid="file-name">
              {file.name}
            </p>
            <p className="text-xs text-muted-foreground" data-testid="file-size">
              {formatFileSize(file.size)}
            </p>
          </div>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="size-8 text-muted-foreground hover:text-destructive"
            onClick={remove}
            disabled={disabled}
            aria-label={`Remove ${file.name}`}
          >
            <X />
          </Button>
        </div>
      ) : (
        <label
          htmlFor={inputId}
          onDragOver={(event) => {
            event.preventDefault();
            if (!disabled) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            'flex cursor-pointer flex-col items-center justify-center gap-1.5 rounded-lg border-2 border-dashed px-4 py-6 text-center transition-colors',
            'hover:border-primary/50 hover:bg-accent/40',
            'peer-focus-visible:border-ring peer-focus-visible:bg-accent/40 peer-focus-visible:ring-[3px] peer-focus-visible:ring-ring/50',
            dragging && 'border-primary bg-accent/60',
            error && 'border-destructive/50',
            disabled && 'pointer-events-none opacity-60',
          )}
        >
          <UploadCloud className="size-6 text-muted-foreground" />
          <span className="text-sm">
            <span className="font-medium text-primary">choose a file</span> or drop it here
          </span>
          <span className="text-xs text-muted-foreground">.csv, up to 20 MB</span>
        </label>
      )}

      {error && (
        <p role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
