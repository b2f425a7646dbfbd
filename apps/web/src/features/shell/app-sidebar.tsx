/**
 * The main screen's sidebar (docs/product.md#sidebar): title and tagline, the two navigation
 * items, then the watchlist, the keywords and the alerts with their unread count, saved audits, saved
 * dashboards, the external consulting link, the user's email with Logout.
 */
import {
  BellIcon,
  ExternalLinkIcon,
  EyeIcon,
  LayoutDashboardIcon,
  LogOutIcon,
  PlugIcon,
  ScanSearchIcon,
  TagsIcon,
  UserIcon,
} from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BrandMark, PRODUCT_NAME, PRODUCT_TAGLINE } from '@/components/brand/brand';
import { Badge } from '@/components/ui/badge';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupContent,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarRail,
  SidebarSeparator,
  useSidebar,
} from '@/components/ui/sidebar';
import { preloadAscSettings } from '@/features/asc';
import { preloadDashboard, SavedDashboardsList } from '@/features/dashboard';
import { useAuth } from '@/features/auth/auth.context';
import { preloadKeywordsIndex } from '@/features/keywords';
import { isKeywordsPath } from '@/features/keywords/keywords.paths';
import { preloadAlerts, preloadWatchlist } from '@/features/watchlist';
import { unreadCountQuery } from '@/features/watchlist/watch.api';
import { webConfigQuery } from '@/lib/queries';
import { useMainScreen, type TMainTab } from './main-screen.context';
import { SavedAuditsList } from './saved-audits-list';

const NAV: {
  tab: TMainTab;
  label: string;
  icon: typeof ScanSearchIcon;
  /** Fetches the tab's code on intent (hover or focus of its entry). */
  preload?: () => void;
}[] = [
  { tab: 'audit', label: 'app page audit', icon: ScanSearchIcon },
  { tab: 'dashboard', label: 'dashboard', icon: LayoutDashboardIcon, preload: preloadDashboard },
];

/** The sidebar of the signed-in shell. */
export function AppSidebar() {
  const { user, logout } = useAuth();
  const { tab, setTab } = useMainScreen();
  const { setOpenMobile } = useSidebar();
  const { pathname } = useLocation();
  const consultingUrl = useQuery(webConfigQuery()).data?.consultingUrl ?? null;
  const unread = useQuery(unreadCountQuery()).data ?? 0;
  const unreadText = unread > 99 ? '99+' : String(unread);

  return (
    <Sidebar collapsible="icon" data-testid="app-sidebar">
      <SidebarHeader className="px-3 pt-4 pb-2 group-data-[collapsible=icon]:px-2 [[data-mobile=true]_&]:pr-10">
        <div className="flex items-center gap-3">
          <BrandMark className="group-data-[collapsible=icon]:size-8" />
          <div className="min-w-0 group-data-[collapsible=icon]:hidden">
            <span className="block truncate font-semibold tracking-tight text-white">
              {PRODUCT_NAME}
            </span>
            <span className="block text-xs leading-snug text-sidebar-muted-foreground">
              {PRODUCT_TAGLINE}
            </span>
          </div>
        </div>
        <div className="flex gap-1.5 pl-12 group-data-[collapsible=icon]:hidden">
          <Badge className="h-4 border-sidebar-primary/40 bg-sidebar-primary/20 px-1.5 text-[10px] text-sidebar-primary-foreground">
            alpha
          </Badge>
          <Badge className="h-4 border-sidebar-border bg-transparent px-1.5 text-[10px] text-sidebar-muted-foreground">
            iOS only
          </Badge>
        </div>
      </SidebarHeader>
      <SidebarSeparator />
      <SidebarContent>
        <SidebarGroup>
          <SidebarGroupContent>
            <SidebarMenu>
              {NAV.map(({ tab: id, label, icon: Icon, preload }) => (
                <SidebarMenuItem key={id}>
                  <SidebarMenuButton
                    tooltip={label}
                    isActive={pathname === '/' && tab === id}
                    onPointerEnter={preload}
                    onFocus={preload}
                    onClick={() => {
                      setTab(id);
                      setOpenMobile(false);
                    }}
                  >
                    <Icon />
                    <span>{label}</span>
                  </SidebarMenuButton>
                </SidebarMenuItem>
              ))}
              <SidebarMenuItem>
                <SidebarMenuButton
                  asChild
                  tooltip="watchlist"
                  isActive={
                    pathname === '/watchlist' ||
                    (pathname.startsWith('/apps/') && !isKeywordsPath(pathname))
                  }
                >
                  <Link
                    to="/watchlist"
                    onClick={() => setOpenMobile(false)}
                    onPointerEnter={preloadWatchlist}
                    onFocus={preloadWatchlist}
                    data-testid="nav-watchlist"
                  >
                    <EyeIcon />
                    <span>watchlist</span>
                  </Link>
                </SidebarMenuButton>
              </SidebarMenuItem>
              <SidebarMenuItem>
                <SidebarMenuButton asChild tooltip="keywords" isActive={isKeywordsPath(pathname)}>
                  <Link
                    to="/keywords"
                    onClick={() => setOpenMobile(false)}
                    onPointerEnter={preloadKeywordsIndex}
                    onFocus={preloadKeywordsIndex}
                    data-testid="nav-keywords"
                  >
                    <TagsIcon />
                    <span>keywords</span>
                  </Link>
                </SidebarMenuButton>
              </SidebarMenuItem>
              <SidebarMenuItem>
                <SidebarMenuButton
                  asChild
                  tooltip={unread > 0 ? `alerts, ${unread} unread` : 'alerts'}
                  isActive={pathname === '/alerts'}
                >
                  <Link
                    to="/alerts"
                    onClick={() => setOpenMobile(false)}
                    onPointerEnter={preloadAlerts}
                    onFocus={preloadAlerts}
                    data-testid="nav-alerts"
                  >
                    <span className="relative flex">
                      <BellIcon className="size-4" />
                      {unread > 0 && (
                        <span
                          className="absolute -top-1 -right-1 hidden size-2 rounded-full bg-sidebar-primary group-data-[collapsible=icon]:block"
                          aria-hidden
                        />
                      )}
                    </span>
                    <span className="flex-1">alerts</span>
                    {unread > 0 && (
                      <span className="ml-auto rounded-full bg-sidebar-primary px-1.5 text-[11px] leading-5 font-semibold text-sidebar-primary-foreground tabular-nums group-data-[collapsible=icon]:hidden">
                        <span data-testid="unread-count">{unreadText}</span>
                        <span className="sr-only"> unread</span>
                      </span>
                    )}
                  </Link>
                </SidebarMenuButton>
              </SidebarMenuItem>
              <SidebarMenuItem>
                <SidebarMenuButton
                  asChild
                  tooltip="App Store Connect"
                  isActive={pathname === '/settings/app-store-connect'}
                >
                  <Link
                    to="/settings/app-store-connect"
                    onClick={() => setOpenMobile(false)}
                    onPointerEnter={preloadAscSettings}
                    onFocus={preloadAscSettings}
                    data-testid="nav-asc"
                  >
                    <PlugIcon />
                    <span>App Store Connect</span>
                  </Link>
                </SidebarMenuButton>
              </SidebarMenuItem>
            </SidebarMenu>
          </SidebarGroupContent>
        </SidebarGroup>
        <SidebarGroup className="group-data-[collapsible=icon]:hidden">
          <SidebarGroupLabel>saved audits</SidebarGroupLabel>
          <SidebarGroupContent>
            <SavedAuditsList />
          </SidebarGroupContent>
        </SidebarGroup>
        <SidebarGroup className="group-data-[collapsible=icon]:hidden">
          <SidebarGroupLabel>saved dashboards</SidebarGroupLabel>
          <SidebarGroupContent>
            <SavedDashboardsList />
          </SidebarGroupContent>
        </SidebarGroup>
      </SidebarContent>
      <SidebarFooter>
        {consultingUrl && (
          <>
            <SidebarMenu>
              <SidebarMenuItem>
                <SidebarMenuButton asChild tooltip="get a human ASO audit">
                  <a
                    href={consultingUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="text-sidebar-primary"
                    data-testid="consulting-link"
                  >
                    <ExternalLinkIcon />
                    <span>get a human ASO audit</span>
                  </a>
                </SidebarMenuButton>
              </SidebarMenuItem>
            </SidebarMenu>
            <SidebarSeparator className="mx-0" />
          </>
        )}
        <div className="flex items-center gap-2 rounded-md px-1 py-1 group-data-[collapsible=icon]:flex-col group-data-[collapsible=icon]:px-0">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-sidebar-accent text-sidebar-accent-foreground">
            <UserIcon className="size-4" />
          </span>
          <span
            className="min-w-0 flex-1 truncate text-xs text-sidebar-foreground/80 group-data-[collapsible=icon]:hidden"
            data-testid="user-email"
          >
            {user?.email}
          </span>
          <SidebarMenuButton
            tooltip="Logout"
            className="w-auto shrink-0 px-2 text-xs"
            onClick={() => void logout()}
            aria-label="Logout"
          >
            <LogOutIcon />
            <span className="group-data-[collapsible=icon]:hidden">Logout</span>
          </SidebarMenuButton>
        </div>
      </SidebarFooter>
      <SidebarRail />
    </Sidebar>
  );
}
