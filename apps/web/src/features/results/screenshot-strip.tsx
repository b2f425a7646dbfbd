import { cn } from '@/lib/utils';
import { StoreImage } from './store-image';

/** Portrait iPhone screenshots (392 x 848 points) when a URL does not tell its size. */
const DEFAULT_ASPECT = '392 / 848';

/**
 * The width / height a store artwork URL names ('.../1290x2796bb.jpg' -> '1290 / 2796'), else
 * the iPhone portrait default: the placeholder of a failed image keeps the image's shape.
 */
export function aspectFromUrl(url: string): string {
  const match = /\/(\d{2,5})x(\d{2,5})[a-z]*\.(?:jpe?g|png|webp)(?:$|[?#])/i.exec(url);
  return match ? `${match[1]} / ${match[2]}` : DEFAULT_ASPECT;
}

/**
 * A horizontal, scroll-snapping strip of screenshots. It is a named, focusable group so that
 * keyboard users can scroll it with the arrow keys (WCAG 2.1 2.1.1). Printed, it wraps.
 */
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
      role="group"
      aria-label={`${label} screenshots`}
      tabIndex={0}
      className={cn(
        'scrollbar-thin -mx-1 flex snap-x snap-mandatory gap-3 overflow-x-auto rounded-md px-1 pb-3 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
        // On paper the strip wraps to the page's width instead of scrolling.
        'print:flex-wrap print:overflow-visible',
        className,
      )}
      data-testid={testId}
    >
      {urls.map((url, i) => (
        <StoreImage
          key={`${url}-${i}`}
          src={url}
          alt={`${label} screenshot ${i + 1}`}
          label={`Screenshot ${i + 1}`}
          aspectRatio={aspectFromUrl(url)}
          className="h-72 w-auto snap-start rounded-xl shadow-xs sm:h-96"
          placeholderClassName="h-40 w-auto snap-start rounded-xl sm:h-48"
        />
      ))}
    </div>
  );
}
