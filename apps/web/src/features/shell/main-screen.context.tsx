/**
 * Shared state of the main screen (docs/product.md#screens and #states-and-transitions):
 * which tab is shown, and requests from the sidebar to open a saved audit or dashboard.
 *
 * Use it anywhere under the signed-in shell with {@link useMainScreen}:
 * - `setTab('audit' | 'dashboard')` switches the tab (and goes to `/` if another route is shown).
 * - `openDashboard(id)` switches to the dashboard tab and sets `requestedDashboard` to
 *   `{ id, seq }`. The dashboard tab reacts to it (load that dashboard) and then calls
 *   `clearRequestedDashboard()`. `seq` grows on every request, so opening the same dashboard
 *   twice is two distinct requests.
 * - `openAudit(auditId)` switches to the audit tab and shows that audit's result view
 *   (docs/product.md#states-and-transitions: "Clicking a saved audit loads it and switches to the
 *   audit tab").
 *
 * The audit tab's own view (form / progress / result) is also kept here so that a saved
 * audit can be opened from the sidebar while the tab is not mounted.
 */
import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Tabs of the main screen. */
export type TMainTab = 'audit' | 'dashboard';

/** View of the audit tab: the form, the progress of a running audit, or an audit's result. */
export type TAuditView =
  | { kind: 'form' }
  | { kind: 'progress'; auditId: string; validLinks: number }
  | { kind: 'result'; auditId: string };

/** A request to open a saved dashboard; `seq` makes repeated requests distinct. */
export interface TDashboardRequest {
  id: string;
  seq: number;
}

/** What {@link useMainScreen} returns. */
export interface TMainScreenState {
  tab: TMainTab;
  setTab: (tab: TMainTab) => void;
  requestedDashboard: TDashboardRequest | null;
  openDashboard: (id: string) => void;
  clearRequestedDashboard: () => void;
  auditView: TAuditView;
  setAuditView: (view: TAuditView) => void;
  openAudit: (auditId: string) => void;
}

const MainScreenContext = createContext<TMainScreenState | null>(null);

/** Provides {@link MainScreenState}; mounted once by the signed-in layout (inside the router). */
export function MainScreenProvider({ children }: { children: ReactNode }) {
  const [tab, setTabState] = useState<TMainTab>('audit');
  const [requestedDashboard, setRequestedDashboard] = useState<TDashboardRequest | null>(null);
  const [auditView, setAuditView] = useState<TAuditView>({ kind: 'form' });
  const seq = useRef(0);
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const goHome = useCallback(() => {
    if (pathname !== '/') void navigate('/');
  }, [navigate, pathname]);

  const setTab = useCallback(
    (next: TMainTab) => {
      setTabState(next);
      goHome();
    },
    [goHome],
  );

  const openDashboard = useCallback(
    (id: string) => {
      seq.current += 1;
      setRequestedDashboard({ id, seq: seq.current });
      setTab('dashboard');
    },
    [setTab],
  );

  const clearRequestedDashboard = useCallback(() => setRequestedDashboard(null), []);

  const openAudit = useCallback(
    (auditId: string) => {
      setAuditView({ kind: 'result', auditId });
      setTab('audit');
    },
    [setTab],
  );

  const value = useMemo<TMainScreenState>(
    () => ({
      tab,
      setTab,
      requestedDashboard,
      openDashboard,
      clearRequestedDashboard,
      auditView,
      setAuditView,
      openAudit,
    }),
    [tab, setTab, requestedDashboard, openDashboard, clearRequestedDashboard, auditView, openAudit],
  );
  return <MainScreenContext.Provider value={value}>{children}</MainScreenContext.Provider>;
}

/** The main screen's shared state. Throws when used outside {@link MainScreenProvider}. */
export function useMainScreen(): TMainScreenState {
  const ctx = useContext(MainScreenContext);
  if (!ctx) throw new Error('useMainScreen must be used within MainScreenProvider');
  return ctx;
}
