import { ImageOffIcon, WifiOffIcon } from 'lucide-react';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { isPrinting } from '@/hooks/use-printing';
import { cn } from '@/lib/utils';

/**
 * How long a printed page waits for a store image (ms) before its placeholder takes its place:
 * the PDF is not held up by an image host that does not answer (offline, a slow CDN).
 */
export const PRINT_IMAGE_WAIT_MS = 3_000;

/** Told once per image that fails to load, so a view can explain it once. */
const ImageFailureContext = createContext<() => void>(() => undefined);

/** What {@link useStoreImageFailures} gives a view. */
export interface TStoreImageFailures {
  /** True once any store image below the provider failed to load. */
  failed: boolean;
  /** Wrap the view's images in it. */
  Provider: (props: { children: ReactNode }) => ReactNode;
}

/**
 * Counts failed store images under one view (the results), so the view can say once, not once
 * per image, why they are missing: offline mode (recorded store data, no internet) or a CDN
 * hiccup.
 */
export function useStoreImageFailures(): TStoreImageFailures {
  const [failed, setFailed] = useState(false);
  const report = useCallback(() => setFailed(true), []);
  const Provider = useMemo(
    () =>
      function StoreImageFailureProvider({ children }: { children: ReactNode }) {
        return (
          <ImageFailureContext.Provider value={report}>{children}</ImageFailureContext.Provider>
        );
      },
    [report],
  );
  return { failed, Provider };
}

/** The one notice of a view whose store images did not load. */
export function StoreImagesNotice() {
  return (
    <p
      role="status"
      className="flex items-start gap-2 rounded-lg border border-dashed bg-muted/50 px-4 py-3 text-sm text-muted-foreground"
      data-testid="store-images-notice"
    >
      <WifiOffIcon className="mt-0.5 size-4 shrink-0" />
      <span>
        Store images (icons, screenshots, event artwork) could not be loaded. They come from
        Apple&apos;s servers and need an internet connection; in offline mode placeholders of the
        same shape stand in for them.
      </span>
    </p>
  );
}

/** Props of {@link StoreImage}. */
export interface TStoreImageProps {
  src: string;
  alt: string;
  /** Short text of the placeholder, e.g. 'Screenshot 3' or 'Icon'. */
  label: string;
  /** Width / height of the image, e.g. '392 / 848'; keeps the placeholder's shape. */
  aspectRatio?: string;
  className?: string;
  /** Classes of the placeholder instead of `className` (e.g. a smaller height). */
  placeholderClassName?: string;
  /**
   * The image only decorates a control that names itself (a play button): it has no name of
   * its own, and its placeholder shows no text, so the control's name holds all it shows.
   */
  decorative?: boolean;
}

/**
 * An image from the store's CDN. When it cannot load (offline, expired artwork URL) a small
 * placeholder of the same box and aspect ratio, with an icon and `label`, takes its place
 * instead of the browser's broken-image glyph, and the enclosing view is told once. On a
 * printed page an image still loading after {@link PRINT_IMAGE_WAIT_MS} is given up the same way.
 */
export function StoreImage({
  src,
  alt,
  label,
  aspectRatio,
  className,
  placeholderClassName,
  decorative = false,
}: TStoreImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const report = useContext(ImageFailureContext);
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    if (!isPrinting()) return;
    const timer = setTimeout(() => {
      const img = image.current;
      if (img && !(img.complete && img.naturalWidth > 0)) {
        setFailedSrc(src);
        report();
      }
    }, PRINT_IMAGE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [src, report]);
  const style: CSSProperties | undefined = aspectRatio ? { aspectRatio } : undefined;
  if (failedSrc === src) {
    return (
      <span
        {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': alt })}
        title={`${label}: image not available`}
        style={style}
        className={cn(
          'flex shrink-0 flex-col items-center justify-center gap-1 overflow-hidden border border-dashed bg-muted p-1 text-center text-muted-foreground',
          placeholderClassName ?? className,
        )}
        data-testid="image-placeholder"
      >
        <ImageOffIcon className="size-4 shrink-0 opacity-70" />
        {!decorative && (
          <span className="line-clamp-2 text-[10px] leading-tight font-medium">{label}</span>
        )}
      </span>
    );
  }
  return (
    <img
      ref={image}
      src={src}
      alt={decorative ? '' : alt}
      // Printed pages load every image at once: the PDF shows them all, below the fold too.
      loading={isPrinting() ? 'eager' : 'lazy'}
      referrerPolicy="no-referrer"
      style={style}
      onError={() => {
        setFailedSrc(src);
        report();
      }}
      className={cn('shrink-0 border bg-muted object-cover', className)}
    />
  );
}
