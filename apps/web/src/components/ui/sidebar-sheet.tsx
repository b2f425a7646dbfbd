/**
 * The sidebar on phones (below 768 px): a slide-in sheet 18rem wide. In its own chunk, fetched
 * when the sheet is first opened (or its trigger pressed), so the first load of the main screen
 * does not carry the dialog library.
 */
import type { CSSProperties, ReactNode } from 'react';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from './sheet';

/** Width of the sidebar sheet on phones. */
export const SIDEBAR_WIDTH_MOBILE = '18rem';

/** The sidebar's content in a sheet, open while `open`. */
export function SidebarSheet({
  open,
  onOpenChange,
  side,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  side: 'left' | 'right';
  children: ReactNode;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        data-sidebar="sidebar"
        data-slot="sidebar"
        data-mobile="true"
        side={side}
        className="w-(--sidebar-width) bg-sidebar p-0 text-sidebar-foreground [&>button]:text-sidebar-foreground"
        style={{ '--sidebar-width': SIDEBAR_WIDTH_MOBILE } as CSSProperties}
      >
        <SheetHeader className="sr-only">
          <SheetTitle>Sidebar</SheetTitle>
          <SheetDescription>Navigation, saved audits and dashboards.</SheetDescription>
        </SheetHeader>
        <div className="flex h-full w-full flex-col">{children}</div>
      </SheetContent>
    </Sheet>
  );
}
