/**
 * Route `/keywords`: where the Keywords pages start (docs/product.md#keywords). An App Store
 * link opens the keywords of any app in its storefront (the app need not be watched); the
 * watched listings, the user's own apps first, link to theirs.
 */
import { parseAppStoreUrl } from '@aso/appstore';
import { useQuery } from '@tanstack/react-query';
import { ArrowRightIcon, TagsIcon } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { EmptyState, ErrorState, LoadingRows } from '@/components/list-states';
import { AppIcon } from '@/features/results/app-icon';
import { watchlistQuery } from '@/features/watchlist/watch.api';
import { ROLE_LABELS, storefrontName, watchItemName } from '@/features/watchlist/watch.helpers';
import { WatchScreen } from '@/features/watchlist/watch-screen';
import { keywordsPath } from './keywords.paths';
import { sourceOrderText } from './keywords.helpers';

/** The Keywords start screen. */
export default function KeywordsIndexPage() {
  const list = useQuery(watchlistQuery());
  const sorted = useMemo(
    () =>
      [...(list.data ?? [])].sort((a, b) => Number(b.role === 'mine') - Number(a.role === 'mine')),
    [list.data],
  );
  return (
    <WatchScreen
      icon={TagsIcon}
      title="Keywords"
      description={`Where an app ranks in the store's search for the terms you track, per storefront, how popular and hard each term is (estimates) and where competitors beat it. Ranks in the ${sourceOrderText()}`}
      testId="keywords-index"
    >
      <OpenByLink />
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Your watched listings</CardTitle>
          <CardDescription>
            Their competitors&apos; ranks show beside yours in the same storefront.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {list.isPending ? (
            <LoadingRows rows={3} />
          ) : list.isError ? (
            <ErrorState
              error={list.error}
              what="the watchlist"
              onRetry={() => void list.refetch()}
            />
          ) : sorted.length === 0 ? (
            <EmptyState text="No watched listing yet: paste an App Store link above, or watch your app and its competitors from the watchlist." />
          ) : (
            <ul className="flex flex-col divide-y" data-testid="keywords-apps">
              {sorted.map((item) => (
                <li key={item.id} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
                  <AppIcon
                    src={item.iconUrl}
                    name={item.appName}
                    className="size-10 rounded-[22%]"
                  />
                  <div className="min-w-0 flex-1">
                    <p className="font-medium break-words">{watchItemName(item)}</p>
                    <div className="flex flex-wrap gap-1.5">
                      <Badge variant={item.role === 'mine' ? 'default' : 'secondary'}>
                        {ROLE_LABELS[item.role]}
                      </Badge>
                      <Badge variant="outline">{storefrontName(item.storefront)}</Badge>
                    </div>
                  </div>
                  <Button asChild variant="outline" size="sm">
                    <Link
                      to={keywordsPath(item.appId, item.storefront)}
                      aria-label={`Keywords of ${watchItemName(item)} (${storefrontName(item.storefront)})`}
                    >
                      keywords <ArrowRightIcon />
                    </Link>
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </WatchScreen>
  );
}

function OpenByLink() {
  const navigate = useNavigate();
  const fieldId = useId();
  const errorId = useId();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseAppStoreUrl(url);
    if (parsed.status !== 'valid' || !parsed.appId) {
      setError(parsed.error ?? 'Paste the App Store link of the app.');
      return;
    }
    void navigate(keywordsPath(parsed.appId, parsed.storefront));
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Open an app&apos;s keywords</CardTitle>
        <CardDescription>
          Any app: tracking a term watches its rank only. The storefront comes from the link.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end" noValidate>
          <div className="flex flex-1 flex-col gap-2">
            <Label htmlFor={fieldId}>App Store link</Label>
            <Input
              id={fieldId}
              type="url"
              inputMode="url"
              placeholder="https://apps.apple.com/us/app/.../id123456789"
              value={url}
              onChange={(e) => {
                setUrl(e.target.value);
                setError(null);
              }}
              aria-invalid={error !== null}
              aria-describedby={error ? errorId : undefined}
              data-testid="keywords-url"
            />
          </div>
          <Button type="submit" data-testid="keywords-open">
            open keywords
          </Button>
        </form>
        {error && (
          <p id={errorId} role="alert" className="mt-2 text-sm text-destructive">
            {error}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
