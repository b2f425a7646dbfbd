/**
 * The 'Are you sure?' confirmation of deleting a saved audit or dashboard
 * (docs/product.md#sidebar), loaded when a delete button is first hovered, focused or pressed (see
 * `saved-item-list.tsx`).
 */
import { ConfirmDialog } from '@/components/confirm-dialog';

/** Props of {@link DeleteConfirmDialog}. */
export interface TDeleteConfirmDialogProps {
  /** The name of the item to delete; the dialog is open while it is not null. */
  name: string | null;
  /** 'audit' or 'dashboard', for the text. */
  kind: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The confirmation dialog; 'Delete' calls `onConfirm`, closing it otherwise calls `onCancel`. */
export function DeleteConfirmDialog({
  name,
  kind,
  onCancel,
  onConfirm,
}: TDeleteConfirmDialogProps) {
  return (
    <ConfirmDialog
      open={name !== null}
      onOpenChange={(open) => !open && onCancel()}
      description={
        <>
          This permanently deletes the saved {kind} "{name}". This cannot be undone.
        </>
      }
      confirmLabel="Delete"
      onConfirm={onConfirm}
    />
  );
}
