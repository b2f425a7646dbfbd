import { ImageOffIcon } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/utils';

/** An app icon from the store; a neutral tile when there is none or it fails to load. */
export function AppIcon({
  src,
  name,
  className,
}: {
  src: string | null;
  name: string | null;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <span
        className={cn(
          'flex shrink-0 items-center justify-center border bg-muted text-muted-foreground',
          className,
        )}
      >
        <ImageOffIcon className="size-1/3" />
      </span>
    );
  }
  return (
    <img
      src={src}
      alt={name ? `${name} icon` : 'App icon'}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      className={cn('shrink-0 border bg-muted object-cover', className)}
    />
  );
}
