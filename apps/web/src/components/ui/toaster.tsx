import { useId } from 'react';
import {
  Toast,
  ToastClose,
  ToastDescription,
  ToastProvider,
  ToastTitle,
  ToastViewport,
} from '@/components/ui/toast';
import { useToast, type TToasterToast } from '@/components/ui/use-toast';

/**
 * One toast, named by its title and described by its text (what F8 then Tab reads out). An
 * error stays until it is dismissed (or the action it describes succeeds, see `dismissToasts`):
 * a problem read half-way must not vanish; other toasts close after `TOAST_DURATION_MS`.
 */
function ToastItem({
  title,
  description,
  action,
  topic: _topic,
  ...props
}: Omit<TToasterToast, 'id'>) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Toast
      aria-labelledby={title ? titleId : undefined}
      aria-describedby={description ? descriptionId : undefined}
      duration={props.variant === 'destructive' ? Infinity : undefined}
      {...props}
    >
      <div className="grid gap-1">
        {title && <ToastTitle id={titleId}>{title}</ToastTitle>}
        {description && <ToastDescription id={descriptionId}>{description}</ToastDescription>}
      </div>
      {action}
      <ToastClose />
    </Toast>
  );
}

/** Renders the toast store into the notification area; mount once at the app root. */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastProvider>
      {toasts.map(({ id, ...toast }) => (
        <ToastItem key={id} {...toast} />
      ))}
      <ToastViewport />
    </ToastProvider>
  );
}
