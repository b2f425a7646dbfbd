/**
 * The session (docs/product.md#states-and-transitions and #roles-and-permissions): the token in
 * localStorage, the signed-in user, login, register and logout.
 * - The access check (`GET /api/check-access`) runs only when a token exists and is never
 *   retried; an answer saying the caller is not a user removes the token.
 * - Login and register store the token and set the user. Register also shows, once, the
 *   personal sign-in code the server answered with (the user signs in with it from then on).
 * - Logout calls the API and clears the local session whatever the answer.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import {
  ZRegisterAnswer,
  ZSessionAnswer,
  type TCheckUserAnswer,
  type TCredentials,
  type TSessionAnswer,
  type TUser,
} from '@aso/contracts';
import { dismissToasts, toast } from '@/components/ui/use-toast';
import { apiFetch } from '@/lib/api';
import { checkAccessKey, checkAccessQuery } from '@/lib/queries';
import { clearSessionToken, getSessionToken, setSessionToken } from '@/lib/session';
import { runLogoutCleanups } from './session-events';

// Shown once, after a sign-up: loaded then.
const SignInCodeDialog = lazy(() =>
  import('./sign-in-code-dialog').then((m) => ({ default: m.SignInCodeDialog })),
);

/** Topic of the session's toasts (a failed sign-out), closed by the next sign-in. */
const SESSION_TOPIC = 'session';

/** 'loading' while the session check runs. */
export type TSessionStatus = 'loading' | 'anonymous' | 'authenticated';

/** What {@link useAuth} returns. */
export interface TAuthState {
  status: TSessionStatus;
  user: TUser | null;
  /** `POST /api/login`; throws ApiError on failure (the login screen shows the toast). */
  login: (credentials: TCredentials) => Promise<TUser>;
  /** `POST /api/register`; throws ApiError on failure. */
  register: (credentials: TCredentials) => Promise<TUser>;
  /** `POST /api/logout`, then clears the local session even when the call failed. */
  logout: () => Promise<void>;
}

const AuthContext = createContext<TAuthState | null>(null);

/** Provides {@link AuthState}; mounted once above the router. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => getSessionToken());
  const check = useQuery(checkAccessQuery(token !== null));
  // The personal sign-in code of a sign-up, shown once over the app.
  const [newCode, setNewCode] = useState<{ code: string; email: string } | null>(null);
  // Mounted from the first code on, so it closes (and gives the focus back) as a dialog does.
  const [codeDialogShown, setCodeDialogShown] = useState(false);
  if (newCode && !codeDialogShown) setCodeDialogShown(true);

  const signIn = useCallback(
    async (path: '/api/login' | '/api/register', credentials: TCredentials) => {
      let answer: TSessionAnswer;
      if (path === '/api/register') {
        const registered = await apiFetch(path, {
          method: 'POST',
          body: credentials,
          schema: ZRegisterAnswer,
        });
        setNewCode({ code: registered.signInCode, email: registered.user.email });
        answer = registered;
      } else {
        answer = await apiFetch(path, {
          method: 'POST',
          body: credentials,
          schema: ZSessionAnswer,
        });
      }
      setSessionToken(answer.sessionToken);
      // Signed in again: an earlier sign-out's error is no longer news.
      dismissToasts(SESSION_TOPIC);
      // The user is known from the answer: seed the check so it does not run again.
      queryClient.setQueryData<TCheckUserAnswer>(checkAccessKey, {
        isUser: true,
        user: answer.user,
      });
      setToken(answer.sessionToken);
      return answer.user;
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    try {
      await apiFetch('/api/logout', { method: 'POST' });
    } catch {
      toast({
        title: 'Logout Error',
        description: 'Failed to logout on the server. Your local session has been cleared.',
        variant: 'destructive',
        topic: SESSION_TOPIC,
      });
    } finally {
      clearSessionToken();
      runLogoutCleanups();
      setToken(null);
      queryClient.clear();
    }
  }, [queryClient]);

  const value = useMemo<TAuthState>(() => {
    let status: TSessionStatus = 'anonymous';
    let user: TUser | null = null;
    if (token !== null) {
      if (check.isPending) status = 'loading';
      else if (check.data?.isUser && check.data.user) {
        status = 'authenticated';
        user = check.data.user;
      }
    }
    return {
      status,
      user,
      login: (c) => signIn('/api/login', c),
      register: (c) => signIn('/api/register', c),
      logout,
    };
  }, [token, check.isPending, check.data, signIn, logout]);

  return (
    <AuthContext.Provider value={value}>
      {children}
      {codeDialogShown && (
        <Suspense fallback={null}>
          <SignInCodeDialog
            code={newCode?.code ?? null}
            email={newCode?.email ?? ''}
            audience="self"
            onClose={() => setNewCode(null)}
          />
        </Suspense>
      )}
    </AuthContext.Provider>
  );
}

/** The session; throws outside {@link AuthProvider}. */
export function useAuth(): TAuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used within AuthProvider');
  return ctx;
}
