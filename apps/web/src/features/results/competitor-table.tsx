import { storeDataDateLine, storeDataWhen, type TAudit, type TStoreData } from '@aso/contracts';
import { SUBTITLE_MAX_CHARS, TITLE_MAX_CHARS } from '@aso/aso-rules';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { charCount } from '@/lib/format.helpers';
import { WatchButton } from '@/features/watchlist/watch-button';
import { AppIcon } from './app-icon';
import { StarRating } from './star-rating';

interface Row {
  key: string;
  you: boolean;
  name: string;
  subtitle: string | null;
  iconUrl: string | null;
  rating: string | null;
  reviewCount: string | null;
  url: string;
  storeData: TStoreData | null;
}

function Count({ text, limit }: { text: string | null; limit: number }) {
  const n = charCount(text);
  return (
    <span className={n > limit ? 'text-destructive' : 'text-muted-foreground'}>
      {n}/{limit}
    </span>
  );
}

/**
 * The store data notes under the table: for each competitor whose sources were recorded on
 * different dates, which fields came from which date (the short date of its row does not say;
 * the audited app's store data line above the result says it for that app).
 */
function mixedDateNotes(rows: readonly Row[]): { key: string; name: string; line: string }[] {
  return rows.flatMap((row) => {
    if (row.you || !row.storeData) return [];
    const line = storeDataDateLine(row.storeData);
    const when = storeDataWhen(row.storeData);
    return line && line !== `Store data ${when}` ? [{ key: row.key, name: row.name, line }] : [];
  });
}

/**
 * Competitor Analysis table (docs/product.md#results-view): name, title, subtitle, icon, rating
 * with the abbreviated review count, and when each app's store data was read (competitors may
 * have been read at other times than the audited app, or come from older recordings); the
 * audited app is the first row for comparison. `watchable` adds a column with 'watch' on each
 * competitor.
 */
export function CompetitorTable({
  audit,
  watchable = false,
}: {
  audit: TAudit;
  watchable?: boolean;
}) {
  if (audit.competitorData.length === 0) return null;
  const rows: Row[] = [
    {
      key: 'you',
      you: true,
      name: audit.appName ?? '',
      subtitle: audit.subtitle,
      iconUrl: audit.iconUrl,
      rating: audit.rating,
      reviewCount: audit.reviewCount,
      url: audit.appStoreUrl,
      storeData: audit.storeData ?? null,
    },
    ...audit.competitorData.map((c, i) => ({
      key: `${c.appId}-${i}`,
      you: false,
      name: c.appName,
      subtitle: c.subtitle,
      iconUrl: c.iconUrl,
      rating: c.rating,
      reviewCount: c.reviewCount,
      url: c.appStoreUrl,
      storeData: c.storeData ?? null,
    })),
  ];
  const notes = mixedDateNotes(rows);
  return (
    <Card data-testid="competitor-analysis">
      <CardHeader>
        <CardTitle className="text-lg">Competitor Analysis</CardTitle>
        <CardDescription>Your listing next to the competitors you entered.</CardDescription>
      </CardHeader>
      <CardContent className="px-0 sm:px-5">
        <p
          className="px-5 pb-2 text-xs text-muted-foreground sm:hidden print:hidden"
          data-testid="scroll-hint"
        >
          Swipe sideways to see every column →
        </p>
        <div
          className="overflow-x-auto [mask-image:linear-gradient(to_right,black_85%,transparent)] sm:[mask-image:none] print:overflow-visible print:[mask-image:none]"
          role="region"
          aria-label="Competitor table, scrolls sideways"
          tabIndex={0}
        >
          <table className="w-full min-w-[46rem] text-sm">
            <thead>
              <tr className="border-b text-left text-xs tracking-wide text-muted-foreground uppercase">
                <th className="px-5 py-2 font-medium sm:pl-0">App</th>
                <th className="px-3 py-2 font-medium">Title</th>
                <th className="px-3 py-2 font-medium">Subtitle</th>
                <th className="px-3 py-2 font-medium">Icon</th>
                <th className="px-3 py-2 font-medium">Rating</th>
                <th className="px-3 py-2 font-medium">Store data</th>
                {watchable && (
                  <th className="px-3 py-2 font-medium">
                    <span className="sr-only">Watch</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr
                  key={row.key}
                  className={row.you ? 'bg-primary/5' : 'border-t'}
                  data-testid="competitor-row"
                >
                  <td className="px-5 py-3 align-top sm:pl-0">
                    <div className="flex items-center gap-2">
                      <a
                        href={row.url}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="font-medium hover:underline"
                      >
                        {row.name}
                      </a>
                      {row.you && <Badge className="text-[10px]">you</Badge>}
                    </div>
                  </td>
                  <td className="px-3 py-3 align-top">
                    <div className="max-w-56">{row.name}</div>
                    <div className="text-xs">
                      <Count text={row.name} limit={TITLE_MAX_CHARS} />
                    </div>
                  </td>
                  <td className="px-3 py-3 align-top">
                    {row.subtitle ? (
                      <>
                        <div className="max-w-56">{row.subtitle}</div>
                        <div className="text-xs">
                          <Count text={row.subtitle} limit={SUBTITLE_MAX_CHARS} />
                        </div>
                      </>
                    ) : (
                      <span className="text-muted-foreground">none</span>
                    )}
                  </td>
                  <td className="px-3 py-3 align-top">
                    <AppIcon src={row.iconUrl} name={row.name} className="size-10 rounded-[22%]" />
                  </td>
                  <td className="px-3 py-3 align-top">
                    <StarRating
                      rating={row.rating}
                      reviewCount={row.reviewCount ?? '0'}
                      size="sm"
                    />
                  </td>
                  <td
                    className="px-3 py-3 align-top text-xs text-muted-foreground"
                    data-testid="competitor-store-date"
                  >
                    {(row.storeData && storeDataWhen(row.storeData)) ?? 'not recorded'}
                  </td>
                  {watchable && (
                    <td className="px-3 py-3 align-top">
                      {!row.you && (
                        <WatchButton appStoreUrl={row.url} role="competitor" appName={row.name} />
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {notes.length > 0 && (
          <ul
            className="mt-3 space-y-1 px-5 text-xs text-muted-foreground sm:px-0"
            data-testid="competitor-store-notes"
          >
            {notes.map((n) => (
              <li key={n.key}>
                <span className="font-medium text-foreground">{n.name}:</span> {n.line}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
