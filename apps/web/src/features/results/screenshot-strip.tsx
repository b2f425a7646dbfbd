import { cn } from '@/lib/utils';

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
  if (urls.length === 0) return <p className="text-sm text-muted-foreground">No screenshots found.</p>;
  return (
    <div
      className={cn('scrollbar-thin -mx-1 flex snap-x snap-mandatory gap-3 overflow-x-auto px-1 pb-3', className)}
      data-testid={testId}
    >
      {urls.map((url, i) => (
        <img
          key={`${url}-${i}`}
          src={url}
          alt={`${label} screenshot ${i + 1}`}
          loading="lazy"
          referrerPolicy="no-referrer"
          className="h-72 w-auto shrink-0 snap-start rounded-xl border bg-muted object-cover shadow-xs sm:h-96"
        />
      ))}
    </div>
  );
}
