/**
 * Toast state in the shadcn/ui manner (spec section 4 "Toasts", section 9): a module-level
 * store, at most one toast visible ({@link TOAST_LIMIT}); toasts can be added, updated,
 * dismissed and removed. A dismissed toast is removed from the store after
 * {@link TOAST_REMOVE_DELAY} ms (its exit animation runs in between).
 */
import { useEffect, useState, type ReactNode } from 'react';

/** At most one toast at a time (spec section 9). */
export const TOAST_LIMIT = 1;
/** Delay (ms) between dismissal and removal from the store (spec section 9). */
export const TOAST_REMOVE_DELAY = 1_000_000;

/** One toast as stored. */
export interface ToasterToast {
  id: string;
  title?: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  variant?: 'default' | 'destructive';
  open: boolean;
  onOpenChange?: (open: boolean) => void;
}

/** Store actions (reducer input). */
export type ToastAction =
  | { type: 'ADD_TOAST'; toast: ToasterToast }
  | { type: 'UPDATE_TOAST'; toast: Partial<ToasterToast> & { id: string } }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId?: string };

/** Store state. */
export interface ToastState {
  toasts: ToasterToast[];
}

let count = 0;
function genId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return count.toString();
}

const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();

function queueRemoval(toastId: string): void {
  if (removeTimeouts.has(toastId)) return;
  const timeout = setTimeout(() => {
    removeTimeouts.delete(toastId);
    dispatch({ type: 'REMOVE_TOAST', toastId });
  }, TOAST_REMOVE_DELAY);
  removeTimeouts.set(toastId, timeout);
}

/**
 * Pure reducer of the toast store: a new toast goes first and the list is cut to
 * {@link TOAST_LIMIT}; dismissing closes (one or all); removing deletes (one or all).
 */
export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case 'ADD_TOAST':
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case 'UPDATE_TOAST':
      return {
        toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)),
      };
    case 'DISMISS_TOAST':
      return {
        toasts: state.toasts.map((t) =>
          action.toastId === undefined || t.id === action.toastId ? { ...t, open: false } : t,
        ),
      };
    case 'REMOVE_TOAST':
      return {
        toasts:
          action.toastId === undefined ? [] : state.toasts.filter((t) => t.id !== action.toastId),
      };
  }
}

const listeners: ((state: ToastState) => void)[] = [];
let memoryState: ToastState = { toasts: [] };

function dispatch(action: ToastAction): void {
  if (action.type === 'DISMISS_TOAST') {
    const ids =
      action.toastId === undefined ? memoryState.toasts.map((t) => t.id) : [action.toastId];
    ids.forEach(queueRemoval);
  }
  memoryState = toastReducer(memoryState, action);
  listeners.forEach((listener) => listener(memoryState));
}

/** What {@link toast} accepts. */
export type ToastInput = Omit<ToasterToast, 'id' | 'open'>;

/**
 * Shows a toast (replacing the visible one) and returns handles to update or dismiss it.
 * Example: `toast({ title: 'Invalid URL', description: '...', variant: 'destructive' })`.
 */
export function toast(props: ToastInput) {
  const id = genId();
  const update = (next: Partial<ToasterToast>) =>
    dispatch({ type: 'UPDATE_TOAST', toast: { ...next, id } });
  const dismiss = () => dispatch({ type: 'DISMISS_TOAST', toastId: id });
  dispatch({
    type: 'ADD_TOAST',
    toast: {
      ...props,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss();
      },
    },
  });
  return { id, dismiss, update };
}

/** Subscribes a component to the toast store. */
export function useToast() {
  const [state, setState] = useState<ToastState>(memoryState);
  useEffect(() => {
    listeners.push(setState);
    return () => {
      const index = listeners.indexOf(setState);
      if (index > -1) listeners.splice(index, 1);
    };
  }, []);
  return {
    ...state,
    toast,
    dismiss: (toastId?: string) => dispatch({ type: 'DISMISS_TOAST', toastId }),
  };
}
