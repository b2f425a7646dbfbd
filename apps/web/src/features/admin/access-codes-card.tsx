import type { TAccessCode } from '@aso/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban, Copy, KeySquare } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { LoadMore } from '@/components/load-more';
import { serverMessage } from '@/lib/api';
import { pageItems } from '@/lib/pages';
import { adminCodesQuery, adminKeys, deactivateAccessCode } from './admin.api';
import { EmptyState, ErrorState, LoadingRows } from '@/components/list-states';
import { AdminTime, copyToClipboard } from './section-state';

/**
 * Active Access Codes (docs/product.md#admin-screen): each code with its uses, expiry and creation
 * date, a copy button and a deactivate button behind a confirmation. Admin codes cannot be
 * deactivated from here: they come from the server configuration, and losing the one in use would
 * lock the admin out mid-session.
 */
export function AccessCodesCard({ adminCode }: { adminCode: string }) {
  const queryClient = useQueryClient();
  const codes = useInfiniteQuery(adminCodesQuery(adminCode));
  const [pending, setPending] = useState<TAccessCode | null>(null);

  const deactivate = useMutation({
    mutationFn: (target: string) => deactivateAccessCode(adminCode, target),
    onSuccess: async (_data, target) => {
      toast({
        title: 'Code Deactivated',
        description: `${target} can no longer be used to sign in.`,
      });
      await queryClient.invalidateQueries({ queryKey: adminKeys.codes });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Deactivation Failed',
        description: serverMessage(err, 'Failed to deactivate the code'),
      }),
  });

  const active = pageItems(codes.data, (page) => page.filter((c) => c.active)) ?? [];

  return (
    <Card data-testid="access-codes-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <KeySquare className="size-4 text-primary" /> Active Access Codes
        </CardTitle>
        <CardDescription>
          Deactivating a code ends the sessions opened with it and stops its users from signing in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {codes.isPending ? (
          <LoadingRows />
        ) : codes.isError ? (
          <ErrorState
            error={codes.error}
            what="access codes"
            onRetry={() => void codes.refetch()}
          />
        ) : active.length === 0 ? (
          <EmptyState text="No active access codes." />
        ) : (
          <>
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Code</TableHead>
                  <TableHead>Type</TableHead>
                  <TableHead className="text-right">Uses</TableHead>
                  <TableHead>Expires</TableHead>
                  <TableHead>Created</TableHead>
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {active.map((c) => (
                  <TableRow key={c.id} data-testid={`code-row-${c.code ?? c.id}`}>
                    <TableCell className="font-mono font-medium tracking-wide">
                      {c.code ?? (
                        <span
                          className="font-sans text-muted-foreground"
                          title="Admin codes are stored only as a hash"
                        >
                          hidden (stored hashed)
                        </span>
                      )}
                    </TableCell>
                    <TableCell>
                      <Badge variant={c.is_admin ? 'warning' : 'secondary'}>
                        {c.is_admin ? 'Admin' : 'User'}
                      </Badge>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {c.uses} / {c.max_uses}
                    </TableCell>
                    <TableCell className="text-muted-foreground">
                      {c.expires_at ? <AdminTime iso={c.expires_at} /> : 'never'}
                    </TableCell>
                    <TableCell className="text-muted-foreground">
                      <AdminTime iso={c.created_at} />
                    </TableCell>
                    <TableCell>
                      <div className="flex justify-end gap-1">
                        {c.code !== null && (
                          <Button
                            variant="ghost"
                            size="sm"
                            onClick={() => void copyToClipboard(c.code ?? '')}
                            aria-label={`Copy ${c.code}`}
                          >
                            <Copy /> copy
                          </Button>
                        )}
                        <Button
                          variant="ghost"
                          size="sm"
                          className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                          onClick={() => setPending(c)}
                          disabled={c.is_admin || c.code === adminCode || deactivate.isPending}
                          focusableWhenDisabled
                          title={
                            c.is_admin
                              ? 'Admin codes are managed through the server configuration'
                              : undefined
                          }
                          aria-label={`Deactivate ${c.code ?? 'admin code'}`}
                        >
                          <Ban /> deactivate
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <LoadMore query={codes} what="access codes" shown={active.length} />
          </>
        )}
      </CardContent>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        description={
          <>
            The access code {pending?.code} will be deactivated: its users are signed out and can no
            longer log in with it.
          </>
        }
        confirmLabel="Deactivate"
        onConfirm={() => {
          if (pending) deactivate.mutate(pending.code ?? pending.id);
          setPending(null);
        }}
      />
    </Card>
  );
}
