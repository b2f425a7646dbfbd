import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LayoutDashboard } from 'lucide-react';
import { useLocation } from 'react-router';
import { useSidebar } from '@/components/ui/sidebar';
import { useMainScreen } from '@/features/shell/main-screen.context';
import { SavedItemList } from '@/features/shell/saved-item-list';
import {
  DASHBOARDS_KEY,
  dashboardsQuery,
  deleteDashboard,
  type TSavedDashboard,
} from './dashboard.api';
import { forgetSaved, useDashboardState } from './dashboard.store';

/**
 * The sidebar's saved dashboards (spec section 2): a click opens one in the dashboard tab (the
 * tab loads its dataset, or says 'Load Failed'); the trash button deletes it after the 'Are you
 * sure?' confirmation ('Delete Failed' on failure). Free of echarts: it is in the first-load
 * bundle.
 */
export function SavedDashboardsList() {
  const queryClient = useQueryClient();
  const { openDashboard, tab } = useMainScreen();
  const { pathname } = useLocation();
  const openId = useDashboardState().current?.savedId ?? null;
  const { setOpenMobile } = useSidebar();
  const list = useQuery(dashboardsQuery());
  const remove = useMutation({
    mutationFn: (item: TSavedDashboard) => deleteDashboard(item.id),
    onSuccess: async (_data, item) => {
      forgetSaved(item.id);
      await queryClient.invalidateQueries({ queryKey: DASHBOARDS_KEY });
    },
  });
  return (
    <SavedItemList
      items={list.data}
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
    />
  );
}
