import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useFocusOnMount } from '@/hooks/use-focus';

/**
 * The frame of the watchlist and alerts screens: a heading with its icon, which takes the focus
 * when the screen opens (so a keyboard or screen reader user starts at its top), a line saying
 * what the screen shows, then its cards.
 */
export function WatchScreen({
  icon: Icon,
  title,
  description,
  testId,
  children,
}: {
  icon: LucideIcon;
  title: string;
  description: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4 md:p-6" data-testid={testId}>
      <header className="flex flex-col gap-1">
        <h1
          ref={heading}
          tabIndex={-1}
          className="focus-target flex items-center gap-2 text-2xl font-semibold tracking-tight"
        >
          <Icon className="size-6 text-primary" aria-hidden /> {title}
        </h1>
        <p className="text-sm text-muted-foreground">{description}</p>
      </header>
      {children}
    </div>
  );
}
