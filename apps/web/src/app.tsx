/**
 * Root of the web app: providers and routes (docs/product.md#routes and #roles-and-permissions).
 * Anyone gets a shared audit at `/s/:token` (a share link, no account needed). Anonymous
 * visitors get the login screen on every other path; signed-in users get `/`,
 * `/results/:id`, `/admin`, `/watchlist`, a watched app's timeline `/apps/:appId?storefront=`,
 * `/keywords` and an app's Keywords page `/apps/:appId/keywords?storefront=`, `/alerts`,
 * `/settings/app-store-connect`, and the 404 page anywhere else. 'Loading...' shows while the
 * session check runs.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Outlet, Route, Routes } from 'react-router';
import { lazyScreen } from '@/components/lazy-screen';
import { LiveAnnouncer } from '@/components/ui/live-announcer';
import { SkipLink } from '@/components/ui/skip-link';
import { DeferredToaster } from '@/components/ui/deferred-toaster';
import { AdminPage } from '@/features/admin';
import { AscSettingsScreen } from '@/features/asc';
import { AuthProvider, useAuth } from '@/features/auth/auth.context';
import { KeywordsIndexScreen, KeywordsScreen } from '@/features/keywords';
import { PrintAuditScreen, PrintDashboardScreen } from '@/features/print';
import { ResultScreen } from '@/features/results';
import { SharedScreen } from '@/features/share';
import { MainScreen } from '@/features/shell/main-screen';
import { ShellLayout } from '@/features/shell/shell-layout';
import { LoadingScreen, NotFoundPage } from '@/features/shell/status-pages';
import { AlertsScreen, TimelineScreen, WatchlistScreen } from '@/features/watchlist';
import { queryClient } from '@/lib/query-client';
import { getSessionToken } from '@/lib/session';

const login = lazyScreen(
  () => import('@/features/auth/login-page'),
  (m) => m.LoginPage,
  { what: 'sign-in page' },
);
// Without a stored session the login screen is what shows: fetch it with the app, not after.
if (getSessionToken() === null) login.preload();

/** Lets through signed-in users only; others see the spinner or the login screen. */
function SessionGate() {
  const { status } = useAuth();
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'anonymous') return <login.Screen />;
  return <Outlet />;
}

/**
 * The routes. Only the main screen is in the first load; every other screen's code is
 * fetched when it is first shown (or when a link to it is hovered or focused).
 */
function AppRoutes() {
  return (
    <Routes>
      {/* A share link opens without an account (and whatever session the browser holds). */}
      <Route path="/s/:token" element={<SharedScreen />} />
      <Route element={<SessionGate />}>
        <Route element={<ShellLayout />}>
          <Route path="/" element={<MainScreen />} />
          <Route path="/results/:id" element={<ResultScreen />} />
          <Route path="/admin" element={<AdminPage />} />
          <Route path="/watchlist" element={<WatchlistScreen />} />
          <Route path="/apps/:appId" element={<TimelineScreen />} />
          <Route path="/keywords" element={<KeywordsIndexScreen />} />
          <Route path="/apps/:appId/keywords" element={<KeywordsScreen />} />
          <Route path="/alerts" element={<AlertsScreen />} />
          <Route path="/settings/app-store-connect" element={<AscSettingsScreen />} />
        </Route>
        {/* The PDF reports' pages (opened by the render worker; printable by anyone signed in). */}
        <Route path="/print/audit/:id" element={<PrintAuditScreen />} />
        <Route path="/print/dashboard/:id" element={<PrintDashboardScreen />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** The app with its providers. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SkipLink />
      <AuthProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AuthProvider>
      <DeferredToaster />
      <LiveAnnouncer />
    </QueryClientProvider>
  );
}
