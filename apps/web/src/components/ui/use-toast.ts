/**
 * Toast state in the shadcn/ui manner (docs/product.md#toasts): a module-level
 * store, at most one toast visible ({@link TOAST_LIMIT}); toasts can be added, updated,
 * dismissed and removed. A dismissed toast is removed from the store after
 * {@link TOAST_REMOVE_DELAY} ms (its exit animation runs in between). A toast may name the
 * action it is about (`topic`): when that action later succeeds, {@link dismissToasts} closes
 * what is still said about it, so no error outlives the problem it describes.
 */
import { useEffect, useState, type ReactNode } from 'react';

/** At most one toast at a time (docs/product.md#limits-and-constants). */
export const TOAST_LIMIT = 1;
/**
 * Delay (ms) between dismissal and removal from the store (docs/product.md#limits-and-constants).
 */
export const TOAST_REMOVE_DELAY = 1_000_000;

/** One toast as stored. */
export interface TToasterToast {
  id: string;
  title?: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  variant?: 'default' | 'destructive';
  /**
   * The action the toast is about ('sign-in', 'analysis', 'pdf:<path>'): closed by
   * {@link dismissToasts} once that action succeeds.
   */
  topic?: string;
  open: boolean;
  onOpenChange?: (open: boolean) => void;
}

/** Store actions (reducer input). */
export type TToastAction =
  | { type: 'ADD_TOAST'; toast: TToasterToast }
  | { type: 'UPDATE_TOAST'; toast: Partial<TToasterToast> & { id: string } }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'DISMISS_TOPIC'; topic: string }
  | { type: 'REMOVE_TOAST'; toastId?: string };

/** Store state. */
export interface TToastState {
  toasts: TToasterToast[];
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
export function toastReducer(state: TToastState, action: TToastAction): TToastState {
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
    case 'DISMISS_TOPIC':
      return {
        toasts: state.toasts.map((t) => (t.topic === action.topic ? { ...t, open: false } : t)),
      };
    case 'REMOVE_TOAST':
      return {
        toasts:
          action.toastId === undefined ? [] : state.toasts.filter((t) => t.id !== action.toastId),
      };
  }
}

const listeners: ((state: TToastState) => void)[] = [];
let memoryState: TToastState = { toasts: [] };

function dispatch(action: TToastAction): void {
  if (action.type === 'DISMISS_TOAST') {
    const ids =
      action.toastId === undefined ? memoryState.toasts.map((t) => t.id) : [action.toastId];
    ids.forEach(queueRemoval);
  } else if (action.type === 'DISMISS_TOPIC') {
    memoryState.toasts.filter((t) => t.topic === action.topic).forEach((t) => queueRemoval(t.id));
  }
  memoryState = toastReducer(memoryState, action);
  listeners.forEach((listener) => listener(memoryState));
}

/** What {@link toast} accepts. */
export type TToastInput = Omit<TToasterToast, 'id' | 'open'>;

/**
 * Shows a toast (replacing the visible one) and returns handles to update or dismiss it.
 * Example: `toast({ title: 'Invalid URL', description: '...', variant: 'destructive' })`.
 */
export function toast(props: TToastInput) {
  const id = genId();
  const update = (next: Partial<TToasterToast>) =>
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

/** The toasts of the store as the notification area shows them (newest first). */
export function getToasts(): readonly TToasterToast[] {
  return memoryState.toasts;
}

/**
 * Closes every toast about `topic` (see `ToasterToast.topic`): call it when the action the
 * toast's error described has succeeded. A no-op when none is open.
 */
export function dismissToasts(topic: string): void {
  if (memoryState.toasts.some((t) => t.topic === topic && t.open)) {
    dispatch({ type: 'DISMISS_TOPIC', topic });
  }
}

/** Subscribes a component to the toast store. */
export function useToast() {
  const [state, setState] = useState<TToastState>(memoryState);
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
