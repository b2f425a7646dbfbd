/**
 * Login / sign-up screen (spec section 2 "Login screen", sections 5 and 8): email and access
 * code (a password-style field: the access code to sign up, the personal sign-in code to log
 * in), a toggle between login and sign up, 'please wait...' while busy, and the spec's toasts.
 */
import { BarChart3Icon, ScanSearchIcon, SparklesIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  BrandMark,
  PRODUCT_NAME,
  PRODUCT_SIDE_TEXT,
  PRODUCT_TAGLINE,
} from '@/components/brand/brand';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { MAIN_CONTENT_ID } from '@/components/ui/skip-link';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { useAuth } from './auth.context';

type TMode = 'login' | 'register';

const FEATURES = [
  {
    icon: ScanSearchIcon,
    text: 'Audit your App Store page: title, subtitle, keywords, visuals, ratings, in-app events',
  },
  { icon: SparklesIcon, text: 'Compare against up to three competitors and get prioritised fixes' },
  { icon: BarChart3Icon, text: 'Turn App Store Connect exports into a conversion dashboard' },
];

/** The only screen anonymous visitors see, on every path (spec section 6). */
export function LoginPage() {
  const { login, register } = useAuth();
  const [mode, setMode] = useState<TMode>('login');
  const [email, setEmail] = useState('');
  const [accessCode, setAccessCode] = useState('');
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !accessCode.trim()) {
      toast({
        title: 'Missing Information',
        description: 'Please enter both email and access code.',
        variant: 'destructive',
      });
      return;
    }
    setBusy(true);
    try {
      const credentials = { email: email.trim(), accessCode: accessCode.trim() };
      await (mode === 'login' ? login(credentials) : register(credentials));
    } catch (err) {
      toast(
        mode === 'login'
          ? {
              title: 'Login Failed',
              description: serverMessage(err, 'Failed to login. Please check your credentials.'),
              variant: 'destructive',
            }
          : {
              title: 'Registration Failed',
              description: serverMessage(err, 'Failed to register. Please check your credentials.'),
              variant: 'destructive',
            },
      );
      setBusy(false);
    }
  };

  return (
    <div className="grid min-h-svh lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
      <aside className="relative hidden overflow-hidden bg-sidebar p-10 text-sidebar-foreground lg:flex lg:flex-col">
        <div className="pointer-events-none absolute -top-32 -right-32 size-96 rounded-full bg-indigo-500/20 blur-3xl" />
        <div className="pointer-events-none absolute -bottom-40 -left-20 size-96 rounded-full bg-violet-600/20 blur-3xl" />
        <div className="relative flex items-center gap-3">
          <BrandMark />
          <div>
            <span className="block font-semibold tracking-tight">{PRODUCT_NAME}</span>
            <span className="block text-xs text-sidebar-muted-foreground">{PRODUCT_TAGLINE}</span>
          </div>
        </div>
        <div className="relative mt-auto mb-auto max-w-md space-y-8">
          <div className="space-y-3">
            <h2 className="text-3xl leading-tight font-semibold tracking-tight text-white">
              Find out what holds your app page back.
            </h2>
            <p className="text-sidebar-muted-foreground" data-testid="login-side-text">
              {PRODUCT_SIDE_TEXT}
            </p>
          </div>
          <ul className="space-y-4">
            {FEATURES.map(({ icon: Icon, text }) => (
              <li key={text} className="flex gap-3 text-sm text-sidebar-foreground/80">
                <Icon className="mt-0.5 size-4 shrink-0 text-sidebar-primary" />
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-xs text-sidebar-muted-foreground">iOS App Store only · alpha</p>
      </aside>

      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        className="flex items-center justify-center px-4 py-12 outline-none sm:px-8"
      >
        <div className="w-full max-w-sm space-y-8">
          <div className="flex flex-col items-center gap-3 text-center lg:hidden">
            <BrandMark className="size-11" />
            <div>
              <span className="block font-semibold">{PRODUCT_NAME}</span>
              <span className="block text-sm text-muted-foreground">{PRODUCT_SIDE_TEXT}</span>
            </div>
          </div>
          <div className="space-y-2">
            <div className="flex items-center gap-2">
              <h1 className="text-2xl font-semibold tracking-tight">
                {mode === 'login' ? 'Welcome back' : 'Create your account'}
              </h1>
              <Badge variant="secondary">alpha</Badge>
            </div>
            <p className="text-sm text-muted-foreground">
              {mode === 'login'
                ? 'Sign in with your email and the personal sign-in code you got when you signed up.'
                : 'Sign up with your email and the access code you were given. You then get a personal sign-in code for your next visits.'}
            </p>
            {mode === 'login' && (
              <p className="text-xs text-muted-foreground" data-testid="personal-code-hint">
                Signed up before personal codes? Your access code no longer signs you in: ask your
                administrator for a personal sign-in code.
              </p>
            )}
          </div>
          <form className="space-y-4" onSubmit={(e) => void onSubmit(e)} noValidate>
            <div className="space-y-2">
              <Label htmlFor="email">Email</Label>
              <Input
                id="email"
                type="email"
                autoComplete="email"
                placeholder="you@company.com"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="access-code">Access code</Label>
              <Input
                id="access-code"
                type="password"
                autoComplete="current-password"
                placeholder="••••••••"
                value={accessCode}
                onChange={(e) => setAccessCode(e.target.value)}
              />
            </div>
            <Button
              type="submit"
              className="w-full"
              size="lg"
              disabled={busy}
              focusableWhenDisabled
            >
              {busy ? 'please wait...' : mode === 'login' ? 'login' : 'sign up'}
            </Button>
          </form>
          <p className="text-center text-sm text-muted-foreground">
            {mode === 'login' ? "Don't have an account?" : 'Already have an account?'}{' '}
            <button
              type="button"
              className="font-medium text-primary underline-offset-4 hover:underline"
              onClick={() => setMode(mode === 'login' ? 'register' : 'login')}
            >
              {mode === 'login' ? 'sign up' : 'login'}
            </button>
          </p>
        </div>
      </main>
    </div>
  );
}
