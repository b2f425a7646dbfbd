import { cn } from '@/lib/utils';
import { StoreImage } from './store-image';

/** A horizontal, scroll-snapping strip of screenshots. */
export function ScreenshotStrip({
  urls,
  label,
  className,
  testId,
}: {
  urls: string[];
  label: string;
  className?: string;
  testId?: string;
}) {
  if (urls.length === 0)
    return <p className="text-sm text-muted-foreground">No screenshots found.</p>;
  return (
    <div
      className={cn(
        'scrollbar-thin -mx-1 flex snap-x snap-mandatory gap-3 overflow-x-auto px-1 pb-3',
        className,
      )}
      data-testid={testId}
    >
      {urls.map((url, i) => (
        <StoreImage
          key={`${url}-${i}`}
          src={url}
          alt={`${label} screenshot ${i + 1}`}
          className="h-72 w-auto min-w-32 snap-start rounded-xl shadow-xs sm:h-96 sm:min-w-44"
          placeholderClassName="aspect-[392/848]"
        />
      ))}
    </div>
  );
}
