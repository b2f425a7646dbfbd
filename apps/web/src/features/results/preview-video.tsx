import { PlayIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { StoreImage } from './store-image';

/** True when `url` is an HLS playlist (Apple's app previews are `.m3u8`). */
export function isHlsUrl(url: string): boolean {
  return /\.m3u8(?:$|[?#])/i.test(url);
}

/** The box of an app preview: iPhone portrait (about 9:19.5). */
const PREVIEW_BOX = 'aspect-[9/19.5] h-[28rem] max-h-[70svh] w-auto rounded-2xl border';

/**
 * Plays `src` in `video`: natively where the browser plays HLS (Safari) or the file is not
 * HLS; elsewhere through hls.js, whose library (about 600 kB) is fetched only now, when the
 * user asked to play. Returns the cleanup.
 */
function attachSource(video: HTMLVideoElement, src: string): () => void {
  if (!isHlsUrl(src) || video.canPlayType('application/vnd.apple.mpegurl') !== '') {
    video.src = src;
    void video.play().catch(() => undefined);
    return () => undefined;
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
    instance.on(Hls.Events.MANIFEST_PARSED, () => void video.play().catch(() => undefined));
    hls = instance;
  });
  return () => {
    destroyed = true;
    hls?.destroy();
  };
}

/**
 * The app preview video. Until the user presses play it is only its poster frame (or a
 * placeholder when the poster cannot load) with a play button: no video data and no player
 * library are downloaded for a preview nobody watches.
 */
export function PreviewVideo({ src, poster }: { src: string; poster?: string | null }) {
  const [playing, setPlaying] = useState(false);
  const ref = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const video = ref.current;
    if (!playing || !video) return;
    return attachSource(video, src);
  }, [playing, src]);

  if (!playing) {
    return (
      <button
        type="button"
        onClick={() => setPlaying(true)}
        className={`group relative block overflow-hidden bg-black ${PREVIEW_BOX}`}
        aria-label="Play the app preview video"
        data-testid="preview-video-poster"
      >
        {poster ? (
          <StoreImage
            src={poster}
            alt="App preview poster frame"
            label="Preview poster"
            decorative
            className="size-full rounded-none border-0 object-cover"
          />
        ) : (
          <span className="block size-full bg-muted" />
        )}
        <span className="absolute inset-0 flex items-center justify-center print:hidden">
          <span className="flex size-14 items-center justify-center rounded-full bg-black/60 text-white shadow-lg transition group-hover:scale-105 group-focus-visible:ring-2 group-focus-visible:ring-ring">
            <PlayIcon className="ml-0.5 size-6 fill-current" />
          </span>
        </span>
      </button>
    );
  }
  return (
    <video
      ref={ref}
      poster={poster ?? undefined}
      controls
      playsInline
      data-testid="preview-video"
      className={`bg-black object-contain shadow-sm ${PREVIEW_BOX}`}
    />
  );
}
