/**
 * The tooltip of a sidebar menu entry while the sidebar is collapsed to icons (the app's only
 * tooltips). In its own chunk, fetched when the sidebar is collapsed, so the first load does not
 * carry the tooltip library and its positioning engine.
 *
 * Each entry has its own Radix provider: a single one above all entries could only be added once
 * the chunk is there, which would remount the whole sidebar. The documented delays
 * (docs/product.md#limits-and-constants: open after 700 ms; within 300 ms of another tooltip, at
 * once) are kept by a flag the entries share: while one tooltip is open, and for the skip delay
 * after it closes, the others open without delay.
 */
import { useSyncExternalStore, type ReactElement } from 'react';
import {
  TOOLTIP_DELAY_MS,
  TOOLTIP_SKIP_DELAY_MS,
  Tooltip,
  TooltipContent,
  TooltipProvider,
  TooltipTrigger,
} from './tooltip';

let skipping = false;
let skipTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function setSkipping(value: boolean): void {
  if (skipping === value) return;
  skipping = value;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function onOpenChange(open: boolean): void {
  clearTimeout(skipTimer);
  if (open) setSkipping(true);
  else skipTimer = setTimeout(() => setSkipping(false), TOOLTIP_SKIP_DELAY_MS);
}

/** Wraps a menu entry (`children`, a single element) with a tooltip reading `label`, on its right. */
export function SidebarMenuTooltip({ label, children }: { label: string; children: ReactElement }) {
  const skip = useSyncExternalStore(subscribe, () => skipping);
  return (
    <TooltipProvider delayDuration={skip ? 0 : TOOLTIP_DELAY_MS} skipDelayDuration={0}>
      <Tooltip onOpenChange={onOpenChange}>
        <TooltipTrigger asChild>{children}</TooltipTrigger>
        <TooltipContent side="right" align="center">
          {label}
        </TooltipContent>
      </Tooltip>
    </TooltipProvider>
  );
}
