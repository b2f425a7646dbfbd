/**
 * Root of the web app: providers and routes (spec section 2 "Routes", section 6).
 * Anonymous visitors get the login screen on every path; signed-in users get `/`,
 * `/results/:id`, `/admin`, `/watchlist`, a watched app's timeline `/apps/:appId?storefront=`,
 * `/alerts`, and the 404 page anywhere else. 'Loading...' shows while the
 * session check runs.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Outlet, RouterProvider } from 'react-router';
import { LiveAnnouncer } from '@/components/ui/live-announcer';
import { SkipLink } from '@/components/ui/skip-link';
import { Toaster } from '@/components/ui/toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { AdminPage } from '@/features/admin';
import { AuthProvider, useAuth } from '@/features/auth/auth.context';
import { LoginPage } from '@/features/auth/login-page';
import { ResultPage } from '@/features/results/result-page';
import { PrintAuditPage, PrintDashboardPage } from '@/features/print/print-pages';
import { MainScreen } from '@/features/shell/main-screen';
import { ShellLayout } from '@/features/shell/shell-layout';
import { LoadingScreen, NotFoundPage } from '@/features/shell/status-pages';
import { AlertsPage, TimelineScreen, WatchlistPage } from '@/features/watchlist';
import { queryClient } from '@/lib/query-client';

/** Lets through signed-in users only; others see the spinner or the login screen. */
function SessionGate() {
  const { status } = useAuth();
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'anonymous') return <LoginPage />;
  return <Outlet />;
}

const router = createBrowserRouter([
  {
    element: <SessionGate />,
    children: [
      {
        element: <ShellLayout />,
        children: [
          { path: '/', element: <MainScreen /> },
          { path: '/results/:id', element: <ResultPage /> },
          { path: '/admin', element: <AdminPage /> },
          { path: '/watchlist', element: <WatchlistPage /> },
          { path: '/apps/:appId', element: <TimelineScreen /> },
          { path: '/alerts', element: <AlertsPage /> },
        ],
      },
      // The PDF reports' pages (opened by the render worker; printable by anyone signed in).
      { path: '/print/audit/:id', element: <PrintAuditPage /> },
      { path: '/print/dashboard/:id', element: <PrintDashboardPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

/** The app with its providers. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <SkipLink />
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
        <Toaster />
        <LiveAnnouncer />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
