/**
 * The 'Are you sure?' confirmation of deleting a saved audit or dashboard
 * (docs/product.md#sidebar), loaded when a delete button is first hovered, focused or pressed (see
 * `saved-item-list.tsx`).
 */
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';

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
    <AlertDialog open={name !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Are you sure?</AlertDialogTitle>
          <AlertDialogDescription>
            This permanently deletes the saved {kind} "{name}". This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className="bg-destructive text-destructive-foreground hover:bg-destructive/90"
            onClick={onConfirm}
          >
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
