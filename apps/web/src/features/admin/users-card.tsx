import { formatFileSize } from '@aso/analytics';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Loader2, Users } from 'lucide-react';
import { useState } from 'react';
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
import { dismissToasts, toast } from '@/components/ui/use-toast';
import { LoadMore } from '@/components/load-more';
import { serverMessage } from '@/lib/api';
import { pageItems } from '@/lib/pages';
import { SignInCodeDialog } from '../auth/sign-in-code-dialog';
import { adminKeys, adminUsersQuery, issueSignInCode } from './admin.api';
import { EmptyState, ErrorState, LoadingRows } from '@/components/list-states';
import { AdminTime } from './section-state';

/**
 * Users: every account (newest first, page by page) with its creation and last sign-in, what
 * it stores (uploads, datasets, PDFs; counted against the storage quota), its sign-in
 * lock-outs (attempts refused past a limit: someone guessing its code), and "issue a new
 * sign-in code", which gives the user a personal code (shown once, in a dialog with a copy
 * button) for the admin to hand over: users who lost theirs, and users who registered before
 * personal codes existed (marked "no personal code").
 */
export function UsersCard({ adminCode }: { adminCode: string }) {
  const queryClient = useQueryClient();
  const users = useInfiniteQuery(adminUsersQuery(adminCode));
  const rows = pageItems(users.data, (page) => page);
  const [issued, setIssued] = useState<{ code: string; email: string } | null>(null);

  const issue = useMutation({
    mutationFn: (userId: string) => issueSignInCode(adminCode, userId),
    onSuccess: async (answer) => {
      dismissToasts('sign-in-code');
      setIssued({ code: answer.signInCode, email: answer.user.email });
      await queryClient.invalidateQueries({ queryKey: adminKeys.users });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Sign-in Code Failed',
        topic: 'sign-in-code',
        description: serverMessage(err, 'Failed to issue a sign-in code'),
      }),
  });

  return (
    <Card data-testid="users-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Users className="size-4 text-primary" /> Users
        </CardTitle>
        <CardDescription>
          People sign in with their email and a personal sign-in code. Issue a new one to a user who
          lost theirs, or who signed up before personal codes existed.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {users.isPending ? (
          <LoadingRows />
        ) : users.isError ? (
          <ErrorState error={users.error} what="the users" onRetry={() => void users.refetch()} />
        ) : !rows?.length ? (
          <EmptyState text="No users yet." />
        ) : (
          <>
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Email</TableHead>
                  <TableHead>Created</TableHead>
                  <TableHead>Last sign-in</TableHead>
                  <TableHead className="text-right">Storage</TableHead>
                  <TableHead className="text-right">Action</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((u) => {
                  const busy = issue.isPending && issue.variables === u.id;
                  return (
                    <TableRow key={u.id} data-testid={`user-row-${u.email}`}>
                      <TableCell className="max-w-64 whitespace-normal">
                        <p className="truncate font-medium" title={u.email}>
                          {u.email}
                        </p>
                        {(!u.hasSignInCode || u.lockouts > 0) && (
                          <div className="mt-1 flex flex-wrap gap-1">
                            {!u.hasSignInCode && <Badge variant="warning">no personal code</Badge>}
                            {u.lockouts > 0 && (
                              <Badge
                                variant="warning"
                                className="whitespace-normal"
                                data-testid="user-lockouts"
                                title="Sign-in attempts for this email were refused past a limit: someone guessing its code, or the user mistyping"
                              >
                                {u.lockouts} sign-in lock-out{u.lockouts === 1 ? '' : 's'}
                                {u.lastLockoutAt
                                  ? `, last $<AdminTime iso={u.lastLockoutAt} />`
                                  : ''}
                              </Badge>
                            )}
                          </div>
                        )}
                      </TableCell>
                      <TableCell className="text-muted-foreground">
                        <AdminTime iso={u.createdAt} />
                      </TableCell>
                      <TableCell className="text-muted-foreground">
                        {u.lastSignInAt ? <AdminTime iso={u.lastSignInAt} /> : 'never'}
                      </TableCell>
                      <TableCell
                        className="text-right text-muted-foreground tabular-nums"
                        data-testid="user-storage"
                      >
                        {formatFileSize(u.storageBytes)}
                      </TableCell>
                      <TableCell className="text-right">
                        <Button
                          variant="outline"
                          size="sm"
                          onClick={() => issue.mutate(u.id)}
                          disabled={issue.isPending}
                          focusableWhenDisabled
                          aria-label={`Issue a new sign-in code for ${u.email}`}
                        >
                          {busy ? <Loader2 className="animate-spin" /> : <KeyRound />}
                          issue a new sign-in code
                        </Button>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
            <LoadMore query={users} what="users" shown={rows.length} />
          </>
        )}
      </CardContent>
      <SignInCodeDialog
        code={issued?.code ?? null}
        email={issued?.email ?? ''}
        audience="admin"
        onClose={() => setIssued(null)}
      />
    </Card>
  );
}
