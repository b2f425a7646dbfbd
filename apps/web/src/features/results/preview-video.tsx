import { useEffect, useRef } from 'react';

/** True when `url` is an HLS playlist (Apple's app previews are `.m3u8`). */
export function isHlsUrl(url: string): boolean {
  return /\.m3u8(?:$|[?#])/i.test(url);
}

/**
 * The app preview video with its poster frame. HLS plays natively where the browser can
 * (Safari); elsewhere through hls.js, loaded only when needed (spec section 2).
 */
export function PreviewVideo({ src, poster }: { src: string; poster?: string | null }) {
  const ref = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (!isHlsUrl(src) || video.canPlayType('application/vnd.apple.mpegurl') !== '') {
      video.src = src;
      return;
    }
    let destroyed = false;
    let hls: { destroy(): void } | null = null;
    void import('hls.js').then(({ default: Hls }) => {
      if (destroyed) return;
      if (!Hls.isSupported()) {
        video.src = src;
        return;
      }
      const instance = new Hls({ enableWorker: false });
      instance.loadSource(src);
      instance.attachMedia(video);
      hls = instance;
    });
    return () => {
      destroyed = true;
      hls?.destroy();
    };
  }, [src]);

  return (
    <video
      ref={ref}
      poster={poster ?? undefined}
      controls
      playsInline
      preload="none"
      data-testid="preview-video"
      className="aspect-[9/19.5] max-h-[32rem] w-auto rounded-2xl border bg-black object-contain shadow-sm"
    />
  );
}
