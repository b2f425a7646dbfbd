import { KEYWORD_TERM_MAX, type TKeywordItem } from '@aso/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2Icon, PlusIcon } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { ApiError, serverMessage } from '@/lib/api';
import { KEYWORDS_KEY, appStoreUrlOf, keywordListKey, trackKeywords } from './keywords.api';
import { checkPastedTerms, refusedTerm } from './keywords.helpers';

/** What the server refused, as the form shows it. */
type TRefusal =
  { kind: 'term'; term: string; problem: string } | { kind: 'other'; message: string };

/**
 * Tracks more terms for the app: a paste box taking a list separated by commas or new lines,
 * checked as it is typed with the server's rules (each entry that cannot be tracked is named
 * with why; terms already tracked are said so), then `POST /api/keywords`. A refusal is shown
 * under the box: the term a 400 names, or the server's message (the per-app limit's 409).
 */
export function AddTermsForm({
  appId,
  storefront,
  items,
}: {
  appId: string;
  storefront: string;
  items: readonly TKeywordItem[] | undefined;
}) {
  const queryClient = useQueryClient();
  const fieldId = useId();
  const hintId = useId();
  const checkId = useId();
  const [text, setText] = useState('');
  const [refusal, setRefusal] = useState<TRefusal | null>(null);
  const tracked = useMemo(() => new Set(items?.map((i) => i.term)), [items]);
  const check = useMemo(
    () => checkPastedTerms(text, storefront, tracked),
    [text, storefront, tracked],
  );
  const track = useMutation({
    mutationFn: (terms: string[]) => trackKeywords(appStoreUrlOf(appId, storefront), terms),
    onSuccess: (list, terms) => {
      setText('');
      setRefusal(null);
      queryClient.setQueryData(keywordListKey(appId, storefront), list);
      void queryClient.invalidateQueries({ queryKey: KEYWORDS_KEY });
      toast({
        title: 'Tracking',
        description: `${terms.length} term${terms.length === 1 ? '' : 's'} added: ${terms.length === 1 ? 'its' : 'their'} first read is queued.`,
      });
    },
    onError: (err) => {
      const message = serverMessage(err, 'Could not track these terms. Please try again.');
      const named = err instanceof ApiError && err.status === 400 ? refusedTerm(message) : null;
      setRefusal(named ? { kind: 'term', ...named } : { kind: 'other', message });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (check.problems.length > 0 || check.terms.length === 0) return;
    track.mutate(check.terms);
  };
  const n = check.terms.length;
  const blocked = n === 0 || check.problems.length > 0;
  return (
    <Card data-testid="add-terms">
      <CardHeader>
        <CardTitle className="text-lg">Track terms</CardTitle>
        <CardDescription id={hintId}>
          Paste terms separated by commas or new lines (up to {KEYWORD_TERM_MAX} characters each).
          Case does not matter: the store&apos;s search ignores it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
          <Label htmlFor={fieldId}>Terms to track</Label>
          <Textarea
            id={fieldId}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setRefusal(null);
            }}
            placeholder={'photo sharing, short videos\nmusic'}
            rows={3}
            aria-describedby={`${hintId} ${checkId}`}
            aria-invalid={check.problems.length > 0 || refusal !== null}
            data-testid="add-terms-input"
          />
          <div id={checkId} className="flex flex-col gap-1 text-sm" data-testid="add-terms-check">
            {n > 0 && (
              <p className="text-muted-foreground">
                {n} new term{n === 1 ? '' : 's'}: {check.terms.join(', ')}
              </p>
            )}
            {check.alreadyTracked.length > 0 && (
              <p className="text-muted-foreground" data-testid="add-terms-tracked">
                Already tracked: {check.alreadyTracked.join(', ')}
              </p>
            )}
            {check.problems.length > 0 && (
              <ul
                className="flex flex-col gap-0.5 text-destructive"
                data-testid="add-terms-problems"
              >
                {check.problems.map((p, i) => (
                  <li key={i}>
                    &ldquo;{p.term}&rdquo; {p.problem}
                  </li>
                ))}
              </ul>
            )}
            {refusal && (
              <p role="alert" className="text-destructive" data-testid="add-terms-error">
                {refusal.kind === 'term' ? `“${refusal.term}” ${refusal.problem}` : refusal.message}
              </p>
            )}
          </div>
          <Button
            type="submit"
            className="w-fit"
            focusableWhenDisabled
            disabled={blocked || track.isPending}
            data-testid="add-terms-submit"
          >
            {track.isPending ? <Loader2Icon className="animate-spin" /> : <PlusIcon />}
            {n > 1 ? `track ${n} terms` : 'track term'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
