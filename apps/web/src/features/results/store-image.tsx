import { ImageOffIcon } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/utils';

/**
 * An image from the store's CDN; a neutral placeholder of the same box replaces it when it
 * cannot load (offline, expired artwork URL), instead of the browser's broken-image glyph.
 */
export function StoreImage({
  src,
  alt,
  className,
  placeholderClassName,
}: {
  src: string;
  alt: string;
  className?: string;
  /** Extra classes of the placeholder, e.g. an aspect ratio when the image sets its own width. */
  placeholderClassName?: string;
}) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span
        role="img"
        aria-label={alt}
        className={cn(
          'flex shrink-0 items-center justify-center border bg-muted text-muted-foreground/60',
          className,
          placeholderClassName,
        )}
      >
        <ImageOffIcon className="size-6" />
      </span>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      className={cn('shrink-0 border bg-muted object-cover', className)}
    />
  );
}
