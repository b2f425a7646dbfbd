import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FileTextIcon } from 'lucide-react';
import { describe, expect, it, vi } from 'vitest';
import { SidebarProvider } from '@/components/ui/sidebar';
import { Toaster } from '@/components/ui/toaster';
import { SavedItemList, type TSavedItem, type TSavedItemListProps } from './saved-item-list';

const ITEMS: TSavedItem[] = [
  { id: 'a1', name: 'Spotify US 18-08-2025' },
  { id: 'a2', name: 'Calm GB 19-08-2025' },
];

function renderList(props: Partial<TSavedItemListProps<TSavedItem>> = {}) {
  const onOpen = vi.fn();
  const onDelete = vi.fn<(item: TSavedItem) => Promise<unknown>>(async () => undefined);
  render(
    <SidebarProvider>
      <SavedItemList
        items={ITEMS}
        isLoading={false}
        kind="audit"
        icon={FileTextIcon}
        emptyText="No saved audits yet"
        testId="saved-audits"
        onOpen={onOpen}
        onDelete={onDelete}
        {...props}
      />
      <Toaster />
    </SidebarProvider>,
  );
  return { onOpen, onDelete };
}

describe('SavedItemList (docs/product.md#sidebar and #error-catalogue: saved audits and dashboards)', () => {
  it('shows the loading, error and empty states', () => {
    const { unmount } = render(
      <SidebarProvider>
        <SavedItemList
          items={undefined}
          isLoading
          kind="audit"
          icon={FileTextIcon}
          emptyText="No saved audits yet"
          onOpen={() => undefined}
          onDelete={async () => undefined}
        />
      </SidebarProvider>,
    );
    expect(screen.queryByText('No saved audits yet')).toBeNull();
    expect(document.querySelectorAll('[data-sidebar="menu-skeleton"]')).toHaveLength(3);
    unmount();
    renderList({ items: undefined, isError: true });
    expect(screen.getByText('Could not load saved audits.')).toBeTruthy();
  });

  it('says so when nothing is saved', () => {
    renderList({ items: [] });
    expect(screen.getByText('No saved audits yet')).toBeTruthy();
  });

  it('opens an entry on click and marks the open one', async () => {
    const user = userEvent.setup();
    const { onOpen } = renderList({ isOpen: (item) => item.id === 'a2' });
    const list = screen.getByTestId('saved-audits');
    await user.click(within(list).getByText('Spotify US 18-08-2025'));
    expect(onOpen).toHaveBeenCalledWith(ITEMS[0]);
    const entries = within(list).getAllByTestId('saved-audit');
    expect(entries.map((e) => e.getAttribute('aria-current'))).toEqual([null, 'page']);
  });

  it('deletes only after "Are you sure?", then says it was deleted', async () => {
    const user = userEvent.setup();
    const { onDelete } = renderList();
    await user.click(screen.getByRole('button', { name: 'Delete Spotify US 18-08-2025' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Are you sure?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(onDelete).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Delete Calm GB 19-08-2025' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(onDelete).toHaveBeenCalledWith(ITEMS[1]);
    expect(await screen.findByText('"Calm GB 19-08-2025" was deleted.')).toBeTruthy();
  });

  it("shows 'Delete Failed' when the delete is refused", async () => {
    const user = userEvent.setup();
    renderList({ onDelete: () => Promise.reject(new Error('500: boom')) });
    await user.click(screen.getByRole('button', { name: 'Delete Spotify US 18-08-2025' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Delete Failed')).toBeTruthy();
    expect(screen.getByText('Failed to delete audit. Please try again.')).toBeTruthy();
  });
});
