import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { LayoutDashboard } from 'lucide-react';
import { useLocation } from 'react-router';
import { LoadMore } from '@/components/load-more';
import { useSidebar } from '@/components/ui/sidebar';
import { useMainScreen } from '@/features/shell/main-screen.context';
import { SavedItemList } from '@/features/shell/saved-item-list';
import { pageItems } from '@/lib/pages';
import {
  DASHBOARDS_KEY,
  dashboardPagesQuery,
  deleteDashboard,
  type TSavedDashboard,
} from './dashboard.api';
import { isAscDashboard } from './saved-dashboard.helpers';
import { forgetSaved, openSavedId, useDashboardState } from './dashboard.store';

/**
 * The sidebar's saved dashboards (docs/product.md#sidebar): a click opens one in the dashboard tab
 * (the tab loads its dataset or imported app, or says 'Load Failed'), one on imported figures says
 * 'App Store Connect' under its name; the trash button deletes it after the 'Are
 * you sure?' confirmation ('Delete Failed' on failure). Free of echarts: it is in the first-load
 * bundle.
 */
export function SavedDashboardsList() {
  const queryClient = useQueryClient();
  const { openDashboard, tab } = useMainScreen();
  const { pathname } = useLocation();
  const openId = openSavedId(useDashboardState());
  const { setOpenMobile } = useSidebar();
  const list = useInfiniteQuery(dashboardPagesQuery());
  const items = pageItems(list.data, (page) => page);
  const remove = useMutation({
    mutationFn: (item: TSavedDashboard) => deleteDashboard(item.id),
    onSuccess: async (_data, item) => {
      forgetSaved(item.id);
      await queryClient.invalidateQueries({ queryKey: DASHBOARDS_KEY });
    },
  });
  return (
    <SavedItemList
      items={items}
      isLoading={list.isPending}
      isError={list.isError}
      kind="dashboard"
      icon={LayoutDashboard}
      emptyText="No saved dashboards yet"
      testId="saved-dashboards"
      isOpen={(item) => pathname === '/' && tab === 'dashboard' && item.id === openId}
      onOpen={(item) => {
        openDashboard(item.id);
        setOpenMobile(false);
      }}
      onDelete={(item) => remove.mutateAsync(item)}
      detail={(item) => (isAscDashboard(item) ? 'App Store Connect' : null)}
      more={
        <LoadMore
          query={list}
          what="saved dashboards"
          shown={items?.length ?? 0}
          appearance="sidebar"
        />
      }
    />
  );
}
