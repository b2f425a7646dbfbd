/**
 * A sidebar list of saved things (audits, dashboards): click opens, the trash button asks 'Are you
 * sure?' before deleting, a failed delete shows 'Delete Failed' (docs/product.md#sidebar and
 * #error-catalogue). When the deleted row leaves the list, the focus it had moves to the row that
 * took its place (or the one before it; when the list is empty, the phone's sidebar sheet or the
 * screen's heading). Shared by the saved audits list here and the dashboard feature's saved
 * dashboards list.
 */
import { Trash2Icon, type LucideIcon } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  SidebarMenu,
  SidebarMenuAction,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarMenuSkeleton,
} from '@/components/ui/sidebar';
import { toast } from '@/components/ui/use-toast';
import { screenHeading } from '@/hooks/use-focus';

const loadConfirm = () => import('./delete-confirm-dialog');
const DeleteConfirmDialog = lazy(() =>
  loadConfirm().then((m) => ({ default: m.DeleteConfirmDialog })),
);
/** Fetches the confirmation dialog's code on intent to delete (hover or focus of a delete button). */
const preloadConfirm = () => void loadConfirm().catch(() => undefined);

/** One entry of a {@link SavedItemList}. */
export interface TSavedItem {
  id: string;
  name: string;
}

/** Props of {@link SavedItemList}. */
export interface TSavedItemListProps<T extends TSavedItem> {
  items: T[] | undefined;
  isLoading: boolean;
  isError?: boolean;
  /** 'audit' or 'dashboard': used in the texts ('Failed to delete audit. Please try again.'). */
  kind: string;
  icon: LucideIcon;
  emptyText: string;
  onOpen: (item: T) => void;
  /** Intent to open an entry (hover or focus): e.g. fetch the code of what it opens. */
  onIntent?: () => void;
  /** Deletes the item; a rejection shows the 'Delete Failed' toast. */
  onDelete: (item: T) => Promise<unknown>;
  /** `data-testid` of the list (tests find entries by name inside it). */
  testId?: string;
  /** The item open on screen, marked in the list. */
  isOpen?: (item: T) => boolean;
  /** A second, smaller line under an item's name (e.g. where its data comes from), or null. */
  detail?: (item: T) => string | null;
  /** Under the entries: the list's "Load more" (docs/product.md#lists-and-pages). */
  more?: ReactNode;
}

/** The list, with the confirmation dialog and delete toasts. */
export function SavedItemList<T extends TSavedItem>({
  items,
  isLoading,
  isError,
  kind,
  icon: Icon,
  emptyText,
  onOpen,
  onIntent,
  onDelete,
  testId,
  isOpen,
  detail,
  more,
}: TSavedItemListProps<T>) {
  const [pending, setPending] = useState<T | null>(null);
  // Mounted from the first delete on, so it closes (and gives the focus back) as a dialog does.
  const [confirmShown, setConfirmShown] = useState(false);
  if (pending && !confirmShown) setConfirmShown(true);
  const list = useRef<HTMLUListElement>(null);
  /** The row being deleted and its place, until the list no longer has it. */
  const deleted = useRef<{ id: string; index: number } | null>(null);

  useEffect(() => {
    const row = deleted.current;
    if (!row || !items || items.some((item) => item.id === row.id)) return;
    deleted.current = null;
    const active = document.activeElement;
    // Only when the focus went with the row: to the page, or to the sheet holding the list.
    if (active && active !== document.body && !active.contains(list.current)) return;
    const rows = list.current?.querySelectorAll<HTMLElement>('[data-sidebar="menu-button"]');
    const next = rows?.[Math.min(row.index, rows.length - 1)];
    const sheet = list.current?.closest<HTMLElement>('[role="dialog"]');
    (next ?? sheet ?? screenHeading())?.focus();
  }, [items]);

  const confirmDelete = async (item: T) => {
    deleted.current = { id: item.id, index: items?.findIndex((i) => i.id === item.id) ?? 0 };
    try {
      await onDelete(item);
      toast({ title: 'Deleted', description: `"${item.name}" was deleted.` });
    } catch {
      deleted.current = null;
      toast({
        title: 'Delete Failed',
        description: `Failed to delete ${kind}. Please try again.`,
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <SidebarMenu ref={list} data-testid={testId}>
        {isLoading &&
          Array.from({ length: 3 }, (_, i) => (
            <SidebarMenuItem key={i}>
              <SidebarMenuSkeleton />
            </SidebarMenuItem>
          ))}
        {!isLoading && isError && (
          <li className="px-2 py-1 text-xs text-sidebar-muted-foreground">
            Could not load saved {kind}s.
          </li>
        )}
        {!isLoading && !isError && items?.length === 0 && (
          <li className="px-2 py-1 text-xs text-sidebar-muted-foreground">{emptyText}</li>
        )}
        {items?.map((item) => {
          const open = isOpen?.(item) ?? false;
          const second = detail?.(item) ?? null;
          return (
            <SidebarMenuItem key={item.id}>
              <SidebarMenuButton
                onClick={() => onOpen(item)}
                onPointerEnter={onIntent}
                onFocus={onIntent}
                title={item.name}
                isActive={open}
                aria-current={open ? 'page' : undefined}
                className="h-auto min-h-8 items-start py-1.5 data-[active=true]:shadow-[inset_3px_0_0_var(--color-sidebar-primary)]"
                data-testid={`saved-${kind}`}
              >
                <Icon className="mt-0.5" />
                {/* The whole name (app, storefront or territory, date), on two lines if need be. */}
                <div className="min-w-0 flex-1 leading-snug break-words whitespace-normal">
                  {item.name}
                  {second && (
                    <span className="block text-xs text-sidebar-muted-foreground">{second}</span>
                  )}
                </div>
              </SidebarMenuButton>
              <SidebarMenuAction
                aria-label={`Delete ${item.name}`}
                onClick={() => setPending(item)}
                onPointerEnter={preloadConfirm}
                onFocus={preloadConfirm}
              >
                <Trash2Icon />
              </SidebarMenuAction>
            </SidebarMenuItem>
          );
        })}
      </SidebarMenu>
      {more}
      {confirmShown && (
        <Suspense fallback={null}>
          <DeleteConfirmDialog
            name={pending?.name ?? null}
            kind={kind}
            onCancel={() => setPending(null)}
            onConfirm={() => {
              if (pending) void confirmDelete(pending);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
