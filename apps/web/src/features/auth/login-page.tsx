/**
 * Login / sign-up screen (docs/product.md#sign-in-screen, #validation-rules and #error-catalogue):
 * email and a password-style code field ('Personal sign-in code' to log in, 'Invite code' to sign
 * up), the two codes explained, a toggle between login and sign up, 'please wait...' while busy.
 * A refusal shows one message under the form ('Login Failed' / 'Registration Failed' with the
 * server's message, or what to do with the code given: an invite code offers to sign up with it);
 * it goes once the fields change, and with the screen when signing in succeeds.
 */
import {
  BarChart3Icon,
  CircleAlertIcon,
  KeyRoundIcon,
  ScanSearchIcon,
  SparklesIcon,
} from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
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
import { useAuth } from './auth.context';
import {
  CODE_EXPLANATIONS,
  CODE_FIELD_LABELS,
  MISSING_INFORMATION,
  signInProblem,
  type TSignInMode,
  type TSignInProblem,
} from './sign-in.texts';

const FEATURES = [
  {
    icon: ScanSearchIcon,
    text: 'Audit your App Store page: title, subtitle, keywords, visuals, ratings, in-app events',
  },
  { icon: SparklesIcon, text: 'Compare against up to three competitors and get prioritised fixes' },
  { icon: BarChart3Icon, text: 'Turn App Store Connect exports into a conversion dashboard' },
];

/**
 * The only screen anonymous visitors see, on every path (docs/product.md#roles-and-permissions).
 */
export function LoginPage() {
  const { login, register } = useAuth();
  const [mode, setMode] = useState<TSignInMode>('login');
  const [email, setEmail] = useState('');
  const [accessCode, setAccessCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<TSignInProblem | null>(null);
  const problemId = useId();
  const submitButton = useRef<HTMLButtonElement>(null);

  const switchMode = (next: TSignInMode) => {
    setMode(next);
    setProblem(null);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !accessCode.trim()) {
      setProblem(MISSING_INFORMATION);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const credentials = { email: email.trim(), accessCode: accessCode.trim() };
      await (mode === 'login' ? login(credentials) : register(credentials));
    } catch (err) {
      setProblem(signInProblem(mode, err));
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
                ? 'Sign in with your email and the personal sign-in code you were shown when you signed up.'
                : 'Sign up with your email and the invite code you were given. You then get a personal sign-in code for your next visits.'}
            </p>
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
                onChange={(e) => {
                  setEmail(e.target.value);
                  setProblem(null);
                }}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="access-code">{CODE_FIELD_LABELS[mode]}</Label>
              <Input
                id="access-code"
                type="password"
                autoComplete={mode === 'login' ? 'current-password' : 'one-time-code'}
                placeholder="XXXX-XXXX-XXXX-XXXX"
                value={accessCode}
                aria-describedby={problem ? problemId : undefined}
                onChange={(e) => {
                  setAccessCode(e.target.value);
                  setProblem(null);
                }}
              />
            </div>
            {problem && (
              <div
                id={problemId}
                role="alert"
                className="flex gap-2.5 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm"
                data-testid="sign-in-problem"
              >
                <CircleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
                <div className="min-w-0 space-y-1">
                  <p className="font-semibold text-destructive">{problem.title}</p>
                  <p className="text-foreground/90">{problem.description}</p>
                  {problem.switchTo && (
                    <button
                      type="button"
                      className="font-medium text-primary underline underline-offset-4"
                      onClick={() => {
                        switchMode(problem.switchTo!);
                        submitButton.current?.focus();
                      }}
                      data-testid="sign-in-switch"
                    >
                      {problem.switchTo === 'register'
                        ? 'sign up with this code'
                        : 'sign in with this code'}
                    </button>
                  )}
                </div>
              </div>
            )}
            <Button
              ref={submitButton}
              type="submit"
              className="w-full"
              size="lg"
              disabled={busy}
              focusableWhenDisabled
            >
              {busy ? 'please wait...' : mode === 'login' ? 'login' : 'sign up'}
            </Button>
          </form>
          <div
            className="space-y-2 rounded-lg border bg-muted/30 p-3 text-xs text-muted-foreground"
            data-testid="code-explanation"
          >
            <p className="flex items-center gap-1.5 font-medium text-foreground">
              <KeyRoundIcon className="size-3.5" aria-hidden /> Which code?
            </p>
            <p>{CODE_EXPLANATIONS.invite}</p>
            <p>{CODE_EXPLANATIONS.personal}</p>
          </div>
          <p className="text-center text-sm text-muted-foreground">
            {mode === 'login' ? "Don't have an account?" : 'Already have an account?'}{' '}
            <button
              type="button"
              className="font-medium text-primary underline-offset-4 hover:underline"
              onClick={() => switchMode(mode === 'login' ? 'register' : 'login')}
            >
              {mode === 'login' ? 'sign up' : 'login'}
            </button>
          </p>
        </div>
      </main>
    </div>
  );
}
