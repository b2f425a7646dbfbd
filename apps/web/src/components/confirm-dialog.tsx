/**
 * The "Are you sure?" confirmation of a destructive action (removing a tracked term, a watched
 * listing, an App Store Connect key, deactivating an access code, deleting a saved item): the
 * consequence in one sentence, Cancel, and the action in the destructive colour. Closing it any
 * other way than the action is a cancel.
 */
import type { ReactNode } from 'react';
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

/** Props of {@link ConfirmDialog}. */
export interface TConfirmDialogProps {
  open: boolean;
  /** Called with false when the dialog closes (Cancel, Escape, the action). */
  onOpenChange: (open: boolean) => void;
  /** What the action does, said to the user. */
  description: ReactNode;
  /** The action's button, e.g. 'Remove'. */
  confirmLabel: string;
  onConfirm: () => void;
}

/** The confirmation dialog; its action calls `onConfirm`, then the dialog closes. */
export function ConfirmDialog({
  open,
  onOpenChange,
  description,
  confirmLabel,
  onConfirm,
}: TConfirmDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Are you sure?</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className="bg-destructive text-destructive-foreground hover:bg-destructive/90"
            onClick={onConfirm}
          >
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
