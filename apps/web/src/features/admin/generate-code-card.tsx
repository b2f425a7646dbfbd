import type { TAccessCode } from '@aso/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Copy, KeyRound, Loader2, Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { DEFAULT_MAX_USES, formatDateTime, parseGenerateForm } from './admin-form.validation';
import { adminKeys, generateAccessCode } from './admin.api';
import { copyToClipboard } from './section-state';

/**
 * Generate Access Code (docs/product.md#admin-screen, #validation-rules and #limits-and-constants):
 * max uses (default 3, at least 1) and an optional expiry in days (at least 1); shows the new code
 * with a copy button.
 */
export function GenerateCodeCard({ adminCode }: { adminCode: string }) {
  const usesId = useId();
  const daysId = useId();
  const queryClient = useQueryClient();
  const [maxUses, setMaxUses] = useState(String(DEFAULT_MAX_USES));
  const [expiresIn, setExpiresIn] = useState('');
  const [errors, setErrors] = useState<{ maxUses?: string; expiresIn?: string }>({});
  const [created, setCreated] = useState<TAccessCode | null>(null);

  const generate = useMutation({
    mutationFn: (input: { maxUses: number; expiresIn?: number }) =>
      generateAccessCode(adminCode, input),
    onSuccess: async (code) => {
      setCreated(code);
      toast({
        title: 'Access Code Generated',
        description: `${code.code} allows ${code.max_uses} sign-ups.`,
      });
      await queryClient.invalidateQueries({ queryKey: adminKeys.codes });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Generation Failed',
        description: serverMessage(err, 'Failed to generate an access code'),
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseGenerateForm(maxUses, expiresIn);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    generate.mutate(parsed.value);
  };

  return (
    <Card data-testid="generate-code-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Plus className="size-4 text-primary" /> Generate Access Code
        </CardTitle>
        <CardDescription>New users register with an email and one of these codes.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form
          className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
          onSubmit={submit}
          noValidate
        >
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={usesId}>Max uses</Label>
            <Input
              id={usesId}
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              value={maxUses}
              onChange={(event) => setMaxUses(event.target.value)}
              aria-invalid={errors.maxUses !== undefined}
            />
            {errors.maxUses && <p className="text-xs text-destructive">{errors.maxUses}</p>}
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={daysId}>Expires in days</Label>
            <Input
              id={daysId}
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              placeholder="optional"
              value={expiresIn}
              onChange={(event) => setExpiresIn(event.target.value)}
              aria-invalid={errors.expiresIn !== undefined}
            />
            {errors.expiresIn && <p className="text-xs text-destructive">{errors.expiresIn}</p>}
          </div>
          <Button
            type="submit"
            className="sm:mt-[1.375rem]"
            disabled={generate.isPending}
            focusableWhenDisabled
          >
            {generate.isPending ? <Loader2 className="animate-spin" /> : <KeyRound />}
            Generate Code
          </Button>
        </form>
        {created && (
          <div
            className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-success/30 bg-success/10 px-4 py-3"
            data-testid="generated-code"
          >
            <div className="flex flex-col gap-0.5">
              <span className="text-xs text-muted-foreground">New access code</span>
              <code
                className="font-mono text-lg font-semibold tracking-wider"
                data-testid="generated-code-value"
              >
                {created.code}
              </code>
              <span className="text-xs text-muted-foreground">
                {created.max_uses} {created.max_uses === 1 ? 'use' : 'uses'}
                {created.expires_at
                  ? ` · expires ${formatDateTime(created.expires_at)}`
                  : ' · no expiry'}
              </span>
            </div>
            <Button
              variant="outline"
              size="sm"
              onClick={() => void copyToClipboard(created.code ?? '')}
            >
              <Copy /> copy
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
