import { KeyRound, Loader2, ShieldCheck } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { dismissToasts } from '@/components/ui/use-toast';
import { ApiError, serverMessage } from '@/lib/api';
import { setAdminCode } from './admin-session';
import { ADMIN_ACCESS_TOPIC, ADMIN_TEXTS, verifyAdminCode } from './admin.api';

/**
 * The admin code gate (docs/product.md#admin-screen, #states-and-transitions and #error-catalogue):
 * it says where the admin code comes from; a valid admin code unlocks the admin screen for this
 * browser session (and closes any 'Access Denied' toast of a code that stopped working); a wrong
 * one shows 'Invalid admin code'; a failed check shows 'Failed to verify admin access' (with the
 * server's reason when it gave one, e.g. after too many attempts). One message per problem: the
 * error under the field, no toast. A refused code gives the focus back to the field, which the
 * error describes.
 */
export function AdminGate() {
  const inputId = useId();
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (value === '') {
      setError('Enter the admin code.');
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (await verifyAdminCode(value)) {
        dismissToasts(ADMIN_ACCESS_TOPIC);
        setAdminCode(value);
        return;
      }
      setError(ADMIN_TEXTS.denied);
    } catch (err) {
      const reason = err instanceof ApiError ? serverMessage(err, '') : '';
      setError(reason ? `${ADMIN_TEXTS.verifyFailed}: ${reason}` : ADMIN_TEXTS.verifyFailed);
    } finally {
      setBusy(false);
    }
    input.current?.focus();
  };

  return (
    <div className="flex min-h-[calc(100vh-3.5rem)] items-center justify-center p-4">
      <Card className="w-full max-w-md" data-testid="admin-gate">
        <CardHeader className="items-center text-center">
          <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <ShieldCheck className="size-6" />
          </div>
          <CardTitle as="h1" className="text-xl">
            Admin access
          </CardTitle>
          <CardDescription>
            Enter the admin access code to manage access codes, users, caches, audit history and
            feedback.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <div
            className="space-y-1.5 rounded-lg border bg-muted/30 p-3 text-xs text-muted-foreground"
            data-testid="admin-gate-help"
          >
            <p className="font-medium text-foreground">Where the admin code comes from</p>
            <p>
              It is the <code className="font-mono text-foreground">ADMIN_ACCESS_CODE</code> setting
              of this server, chosen by whoever runs it (see{' '}
              <code className="font-mono text-foreground">.env.example</code>): ask them for it.
              Invite codes and personal sign-in codes do not open this screen.
            </p>
            <p>Once unlocked, the admin screen stays open in this browser tab until you log out.</p>
          </div>
          <form className="flex flex-col gap-4" onSubmit={(event) => void submit(event)}>
            <div className="flex flex-col gap-2">
              <Label htmlFor={inputId}>Admin code</Label>
              <div className="relative">
                <KeyRound className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
                <Input
                  ref={input}
                  id={inputId}
                  type="password"
                  autoComplete="off"
                  className="pl-9"
                  value={code}
                  onChange={(event) => {
                    setCode(event.target.value);
                    setError(null);
                  }}
                  aria-invalid={error !== null}
                  aria-describedby={error ? errorId : undefined}
                  // Not disabled while checking: a disabled field would lose the focus.
                  readOnly={busy}
                  autoFocus
                />
              </div>
              {error && (
                <p
                  id={errorId}
                  role="alert"
                  className="text-sm font-medium text-destructive"
                  data-testid="admin-gate-error"
                >
                  {error}
                </p>
              )}
            </div>
            <Button type="submit" disabled={busy} focusableWhenDisabled>
              {busy && <Loader2 className="animate-spin" />}
              {busy ? 'verifying...' : 'unlock admin'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
