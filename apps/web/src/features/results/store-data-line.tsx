import { DatabaseIcon } from 'lucide-react';
import { storeDataDateLine, summariseStoreData, type TStoreData } from '@aso/contracts';
import { cn } from '@/lib/utils';

/**
 * The compact "store data" line of a result: which product page layout was read (and in which
 * language), how the lookup and the reviews feed went, the fields the listing does not have,
 * and the fields that could not be read with why. Audits stored before the store data record
 * existed show nothing.
 */
export function StoreDataLine({
  storeData,
  className,
}: {
  storeData: TStoreData | null | undefined;
  className?: string;
}) {
  if (!storeData) return null;
  const s = summariseStoreData(storeData);
  const dated = storeDataDateLine(storeData);
  return (
    <div
      className={cn(
        'flex gap-2.5 rounded-xl border bg-muted/40 px-4 py-3 text-xs text-muted-foreground',
        className,
      )}
      data-testid="store-data-line"
    >
      <DatabaseIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      <div className="min-w-0 space-y-1">
        {dated && (
          <p className="font-medium text-foreground" data-testid="store-data-date">
            {dated}
          </p>
        )}
        <p>
          <span className="font-semibold text-foreground">Store data</span>{' '}
          <span data-testid="store-data-sources">{[s.layout, ...s.sources].join(' · ')}</span>
        </p>
        {s.notOnListing.length > 0 && (
          <p data-testid="store-data-absent">
            <span className="font-medium text-foreground/80">Not on the listing:</span>{' '}
            {s.notOnListing.join(', ')}
          </p>
        )}
        {s.unreadable.length > 0 ? (
          <p data-testid="store-data-unreadable">
            <span className="font-medium text-warning-foreground">Could not be read:</span>{' '}
            {s.unreadable
              .map((g) => `${g.labels.join(', ')}${g.reason ? ` (${g.reason})` : ''}`)
              .join('; ')}
          </p>
        ) : (
          <p>Every field could be read.</p>
        )}
      </div>
    </div>
  );
}
