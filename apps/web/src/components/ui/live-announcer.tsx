/**
 * One polite live region for the whole app (WCAG 2.1 4.1.3 Status Messages): `announce(text)`
 * has a screen reader say `text` once, without moving the focus. Mount {@link LiveAnnouncer}
 * once at the app root; it must exist before the first message, or the first is not read.
 */
import { useEffect, useState } from 'react';

let current = '';
let listener: ((message: string) => void) | null = null;

/**
 * Has screen readers announce `message` (politely: after what they are saying). The same text
 * twice in a row is announced twice: a no-break space is appended to make it a change.
 */
export function announce(message: string): void {
  const text = message.trim();
  if (text === '') return;
  current = current === text ? `${text}\u00a0` : text;
  listener?.(current);
}

/** The live region itself: visually hidden, read by screen readers. */
export function LiveAnnouncer() {
  const [message, setMessage] = useState(current);
  useEffect(() => {
    listener = setMessage;
    return () => {
      if (listener === setMessage) listener = null;
    };
  }, []);
  return (
    <div
      role="status"
      aria-live="polite"
      aria-atomic="true"
      className="sr-only"
      data-testid="live-announcer"
    >
      {message}
    </div>
  );
}
