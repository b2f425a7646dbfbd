/**
 * 'Share' on a finished audit: a dialog that creates a read-only link to the audit
 * (`/s/{token}`, optional expiry), shows it once with a copy button, and lists the audit's live
 * links with a way to revoke each. The server keeps only a hash of each token, so a link can be
 * copied only right after it is made; the list shows its first characters.
 */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckIcon, CopyIcon, Link2Icon, Loader2Icon, Share2Icon, Trash2Icon } from 'lucide-react';
import { useId, useState } from 'react';
import { ZShareCreated, type TShareCreated, type TShareLink } from '@aso/contracts';
import { LoadMore } from '@/components/load-more';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { announce } from '@/components/ui/live-announcer';
import { apiFetch, serverMessage } from '@/lib/api';
import { pageItems } from '@/lib/pages';
import { shareLinksKey, shareLinksQuery } from '@/lib/queries';

/** Expiry choices of a new link (days; null: until revoked). */
const EXPIRY_CHOICES = [
  { value: '', label: 'never (until revoked)' },
  { value: '1', label: 'in 1 day' },
  { value: '7', label: 'in 7 days' },
  { value: '30', label: 'in 30 days' },
  { value: '90', label: 'in 90 days' },
] as const;

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function CopyField({ created }: { created: TShareCreated }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.url);
      setCopied(true);
      announce('Share link copied');
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="space-y-1.5" data-testid="share-created">
      <p className="text-sm font-medium" id="share-url-label">
        New link: copy it now, it is shown only once
      </p>
      <div className="flex items-center gap-2">
        <Input
          readOnly
          value={created.url}
          aria-labelledby="share-url-label"
          onFocus={(e) => e.currentTarget.select()}
          className="font-mono text-xs"
          data-testid="share-url"
        />
        <Button variant="outline" size="sm" onClick={() => void copy()} data-testid="share-copy">
          {copied ? <CheckIcon /> : <CopyIcon />}
          {copied ? 'copied' : 'copy link'}
        </Button>
      </div>
    </div>
  );
}

function LinkRow({ link }: { link: TShareLink }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => apiFetch(`/api/shares/${encodeURIComponent(link.id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      announce('Share link revoked');
      void queryClient.invalidateQueries({ queryKey: shareLinksKey });
    },
  });
  return (
    <li className="flex items-center gap-3 py-2" data-testid="share-link-row">
      <Link2Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="font-mono text-sm">/s/{link.prefix}…</p>
        <p className="text-xs text-muted-foreground">
          made {dateTime(link.createdAt)} ·{' '}
          {link.expiresAt ? `expires ${dateTime(link.expiresAt)}` : 'no expiry'}
        </p>
        {revoke.isError && (
          <p className="text-xs text-destructive" role="alert">
            {serverMessage(revoke.error, 'The link could not be revoked. Please try again.')}
          </p>
        )}
      </div>
      <Button
        variant="ghost"
        size="sm"
        className="text-destructive hover:text-destructive"
        disabled={revoke.isPending}
        focusableWhenDisabled
        onClick={() => revoke.mutate()}
        aria-label={`revoke link ${link.prefix}`}
        data-testid="share-revoke"
      >
        {revoke.isPending ? <Loader2Icon className="animate-spin" /> : <Trash2Icon />}
        revoke
      </Button>
    </li>
  );
}

function ShareLinks({ auditId }: { auditId: string }) {
  const query = useInfiniteQuery(shareLinksQuery(auditId));
  if (query.isPending)
    return (
      <p className="text-sm text-muted-foreground" aria-busy="true">
        Loading your links...
      </p>
    );
  if (query.isError)
    return (
      <div className="flex items-center gap-2 text-sm" role="alert">
        <span className="text-destructive">Your links could not be loaded.</span>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          try again
        </Button>
      </div>
    );
  const mine = pageItems(query.data, (page) => page.items) ?? [];
  const counts = query.data.pages[0]?.data;
  return (
    <div className="space-y-1">
      <h3 className="text-sm font-medium">Links to this audit</h3>
      {mine.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="share-links-empty">
          No links yet: nobody can open this audit but you.
        </p>
      ) : (
        <ul className="divide-y" data-testid="share-links">
          {mine.map((link) => (
            <LinkRow key={link.id} link={link} />
          ))}
        </ul>
      )}
      <LoadMore query={query} what="links" shown={mine.length} />
      {counts && (
        <p className="text-xs text-muted-foreground">
          {counts.total} of {counts.max} links in use across your audits.
        </p>
      )}
    </div>
  );
}

/** The 'share' button of a finished audit and its dialog. */
export function ShareDialog({ auditId, appName }: { auditId: string; appName: string | null }) {
  const queryClient = useQueryClient();
  const expiryId = useId();
  const [expiry, setExpiry] = useState('');
  const create = useMutation({
    mutationFn: () =>
      apiFetch(`/api/audit/${encodeURIComponent(auditId)}/shares`, {
        method: 'POST',
        body: { expiresInDays: expiry === '' ? null : Number(expiry) },
        schema: ZShareCreated,
      }),
    onSuccess: () => {
      announce('Share link created');
      void queryClient.invalidateQueries({ queryKey: shareLinksKey });
    },
  });
  return (
    <Dialog onOpenChange={(open) => !open && create.reset()}>
      <DialogTrigger asChild>
        <Button variant="outline" data-testid="share-audit">
          <Share2Icon /> share
        </Button>
      </DialogTrigger>
      <DialogContent data-testid="share-dialog">
        <DialogHeader>
          <DialogTitle>Share this audit</DialogTitle>
          <DialogDescription>
            Anyone with the link sees this audit of {appName ?? 'the app'} and can download its PDF,
            without an account; nothing else of yours. Revoke a link to close it at once.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex flex-1 flex-col gap-1.5">
            <label htmlFor={expiryId} className="text-sm font-medium">
              Link expires
            </label>
            <select
              id={expiryId}
              className="h-9 rounded-md border bg-card px-2 text-sm"
              value={expiry}
              onChange={(e) => setExpiry(e.target.value)}
              data-testid="share-expiry"
            >
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
          <Button
            onClick={() => create.mutate()}
            disabled={create.isPending}
            focusableWhenDisabled
            data-testid="share-create"
          >
            {create.isPending ? <Loader2Icon className="animate-spin" /> : <Link2Icon />}
            create link
          </Button>
        </div>
        {create.isError && (
          <p className="text-sm text-destructive" role="alert">
            {serverMessage(create.error, 'The link could not be created. Please try again.')}
          </p>
        )}
        {create.data && <CopyField created={create.data} />}
        <ShareLinks auditId={auditId} />
      </DialogContent>
    </Dialog>
  );
}
