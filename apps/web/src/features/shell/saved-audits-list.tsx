import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { FileTextIcon } from 'lucide-react';
import type { TSavedAudit } from '@aso/contracts';
import { useLocation } from 'react-router';
import { useSidebar } from '@/components/ui/sidebar';
import { preloadAuditResult } from '@/features/results';
import { LoadMore } from '@/components/load-more';
import { apiFetch } from '@/lib/api';
import { pageItems } from '@/lib/pages';
import { savedAuditsKey, savedAuditsQuery } from '@/lib/queries';
import { useMainScreen } from './main-screen.context';
import { SavedItemList } from './saved-item-list';

/**
 * The sidebar's saved audits: click opens the audit in the audit tab
 * (docs/product.md#states-and-transitions).
 */
export function SavedAuditsList() {
  const queryClient = useQueryClient();
  const { openAudit, tab, auditView } = useMainScreen();
  const { pathname } = useLocation();
  const { setOpenMobile } = useSidebar();
  const list = useInfiniteQuery(savedAuditsQuery());
  const items = pageItems(list.data, (page) => page);
  const remove = useMutation({
    mutationFn: (item: TSavedAudit) =>
      apiFetch(`/api/saved-audits/${encodeURIComponent(item.id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedAuditsKey }),
  });
  return (
    <SavedItemList
      items={items}
      isLoading={list.isPending}
      isError={list.isError}
      kind="audit"
      icon={FileTextIcon}
      emptyText="No saved audits yet"
      testId="saved-audits"
      isOpen={(item) =>
        pathname === `/results/${item.auditId}` ||
        (pathname === '/' &&
          tab === 'audit' &&
          auditView.kind === 'result' &&
          auditView.auditId === item.auditId)
      }
      onIntent={preloadAuditResult}
      onOpen={(item) => {
        openAudit(item.auditId);
        setOpenMobile(false);
      }}
      onDelete={(item) => remove.mutateAsync(item)}
      more={
        <LoadMore
          query={list}
          what="saved audits"
          shown={items?.length ?? 0}
          appearance="sidebar"
        />
      }
    />
  );
}
