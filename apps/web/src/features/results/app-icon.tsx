import { ImageOffIcon } from 'lucide-react';
import { cn } from '@/lib/utils';
import { StoreImage } from './store-image';

/**
 * An app icon from the store (square); a labelled square placeholder when there is none or it
 * fails to load (see {@link StoreImage}).
 */
export function AppIcon({
  src,
  name,
  className,
}: {
  src: string | null;
  name: string | null;
  className?: string;
}) {
  const alt = name ? `${name} icon` : 'App icon';
  if (!src) {
    return (
      <span
        role="img"
        aria-label={alt}
        className={cn(
          'flex aspect-square shrink-0 items-center justify-center border bg-muted text-muted-foreground',
          className,
        )}
      >
        <ImageOffIcon className="size-1/3" />
      </span>
    );
  }
  return <StoreImage src={src} alt={alt} label="Icon" aspectRatio="1 / 1" className={className} />;
}
