import type { TAscConnection } from '@aso/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRoundIcon, Loader2Icon, PlugIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import {
  ASC_CONNECTIONS_KEY,
  addAscConnection,
  addDemoAscConnection,
  ascDemoQuery,
} from './asc.api';

/**
 * The "add a key" card of the App Store Connect settings: where to create a key and which role
 * it needs, the form that checks and saves it, and the offline demo's key in one click.
 */
export function AddKeyCard() {
  const queryClient = useQueryClient();
  const demo = useQuery(ascDemoQuery());
  const ids = { name: useId(), issuer: useId(), key: useId(), pem: useId(), error: useId() };
  const [form, setForm] = useState({ name: '', issuerId: '', keyId: '', privateKey: '' });
  const [error, setError] = useState<string | null>(null);
  const onAdded = (c: TAscConnection) => {
    setForm({ name: '', issuerId: '', keyId: '', privateKey: '' });
    setError(null);
    toast({
      title: 'Key connected',
      description: `${c.name} sees ${c.apps.length} app${c.apps.length === 1 ? '' : 's'}.`,
    });
    void queryClient.invalidateQueries({ queryKey: ASC_CONNECTIONS_KEY });
  };
  const add = useMutation({
    mutationFn: addAscConnection,
    onSuccess: onAdded,
    onError: (err) => setError(serverMessage(err, 'Could not connect this key. Please try again.')),
  });
  const addDemo = useMutation({
    mutationFn: addDemoAscConnection,
    onSuccess: onAdded,
    onError: (err) =>
      setError(serverMessage(err, 'Could not connect the demo key. Please try again.')),
  });
  const set = (field: keyof typeof form) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setError(null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const missing = (
      [
        ['name', 'a name'],
        ['issuerId', 'the issuer ID'],
        ['keyId', 'the key ID'],
        ['privateKey', 'the private key (.p8)'],
      ] as const
    ).find(([f]) => form[f].trim() === '');
    if (missing) {
      setError(`Enter ${missing[1]}.`);
      return;
    }
    add.mutate({
      name: form.name.trim(),
      issuerId: form.issuerId.trim(),
      keyId: form.keyId.trim(),
      privateKey: form.privateKey,
    });
  };
  const busy = add.isPending || addDemo.isPending;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Add a key</CardTitle>
        <CardDescription>
          In App Store Connect, open Users and Access &gt; Integrations &gt; App Store Connect API,
          generate a team key and download its .p8 file (Apple lets you download it once). The first
          import of an app needs a key with the <strong>Admin</strong> role; later imports also work
          with Sales and Reports or Finance. The private key is stored encrypted and never shown
          again.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {demo.data?.available && (
          <div className="flex flex-col gap-2 rounded-md border border-primary/30 bg-primary/5 p-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm">
              Offline demo: connect the demo team&apos;s key (constructed data) in one click.
            </p>
            <Button
              variant="outline"
              onClick={() => addDemo.mutate()}
              focusableWhenDisabled
              disabled={busy}
              data-testid="asc-demo-connect"
            >
              {addDemo.isPending ? <Loader2Icon className="animate-spin" /> : <PlugIcon />}
              connect the demo key
            </Button>
          </div>
        )}
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate data-testid="asc-form">
          <div className="grid gap-4 sm:grid-cols-3">
            <div className="flex flex-col gap-2">
              <Label htmlFor={ids.name}>Name</Label>
              <Input
                id={ids.name}
                value={form.name}
                maxLength={100}
                placeholder="My team"
                onChange={(e) => set('name')(e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor={ids.issuer}>Issuer ID</Label>
              <Input
                id={ids.issuer}
                value={form.issuerId}
                autoComplete="off"
                spellCheck={false}
                placeholder="57246542-96fe-1a63-e053-0824d011072a"
                onChange={(e) => set('issuerId')(e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor={ids.key}>Key ID</Label>
              <Input
                id={ids.key}
                value={form.keyId}
                autoComplete="off"
                spellCheck={false}
                placeholder="2X9R4HXF34"
                onChange={(e) => set('keyId')(e.target.value)}
              />
            </div>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={ids.pem}>Private key (.p8 file contents)</Label>
            <Textarea
              id={ids.pem}
              value={form.privateKey}
              rows={5}
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-xs"
              placeholder={'-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----'}
              onChange={(e) => set('privateKey')(e.target.value)}
              aria-invalid={error !== null}
              aria-describedby={error ? ids.error : undefined}
            />
          </div>
          {error && (
            <p
              id={ids.error}
              role="alert"
              className="text-sm text-destructive"
              data-testid="asc-error"
            >
              {error}
            </p>
          )}
          <Button
            type="submit"
            className="w-fit"
            focusableWhenDisabled
            disabled={busy}
            data-testid="asc-submit"
          >
            {add.isPending ? <Loader2Icon className="animate-spin" /> : <KeyRoundIcon />}
            {add.isPending ? 'checking the key...' : 'connect'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
