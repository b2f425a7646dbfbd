import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Separator } from '@/components/ui/separator';
import { SidebarInset, SidebarProvider, SidebarTrigger } from '@/components/ui/sidebar';
import { MAIN_CONTENT_ID } from '@/components/ui/skip-link';
import { isKeywordsPath } from '@/features/keywords/keywords.paths';
import { AppSidebar } from './app-sidebar';
import { MainScreenProvider, useMainScreen } from './main-screen.context';

function PageTitle() {
  const { pathname } = useLocation();
  const { tab } = useMainScreen();
  let title = tab === 'audit' ? 'app page audit' : 'dashboard';
  if (pathname.startsWith('/results/')) title = 'audit result';
  else if (pathname.startsWith('/admin')) title = 'admin';
  else if (pathname === '/watchlist') title = 'watchlist';
  else if (isKeywordsPath(pathname)) title = 'keywords';
  else if (pathname.startsWith('/apps/')) title = 'timeline';
  else if (pathname === '/alerts') title = 'alerts';
  return <span className="truncate text-sm font-medium">{title}</span>;
}

/**
 * The signed-in shell: sidebar plus content, with a top bar holding the sidebar trigger. The
 * main-screen state ({@link MainScreenProvider}) lives here so every signed-in route shares it.
 */
export function ShellLayout() {
  const { pathname } = useLocation();
  // A new page opens at its top.
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
  }, [pathname]);
  return (
    <MainScreenProvider>
      <SidebarProvider>
        <AppSidebar />
        <SidebarInset>
          <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b bg-background/85 px-4 backdrop-blur supports-[backdrop-filter]:bg-background/70">
            <SidebarTrigger className="-ml-1" data-testid="sidebar-trigger" />
            <Separator orientation="vertical" className="mr-1 h-4!" />
            <PageTitle />
          </header>
          <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 outline-none">
            <Outlet />
          </main>
        </SidebarInset>
      </SidebarProvider>
    </MainScreenProvider>
  );
}
