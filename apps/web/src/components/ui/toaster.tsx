import { useId } from 'react';
import {
  Toast,
  ToastClose,
  ToastDescription,
  ToastProvider,
  ToastTitle,
  ToastViewport,
} from '@/components/ui/toast';
import { useToast, type ToasterToast } from '@/components/ui/use-toast';

/** One toast, named by its title and described by its text (what F8 then Tab reads out). */
function ToastItem({ title, description, action, ...props }: Omit<ToasterToast, 'id'>) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Toast
      aria-labelledby={title ? titleId : undefined}
      aria-describedby={description ? descriptionId : undefined}
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
