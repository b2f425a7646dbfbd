import { existsSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { markShared } from '../services/share.service';

/**
 * Hosts the store's media come from: artwork and screenshots on `*.mzstatic.com`, app preview
 * videos (HLS playlists and segments) on `*.itunes.apple.com` (e.g. apptrailers.itunes.apple.com).
 */
export const STORE_MEDIA_HOSTS = ['https://*.mzstatic.com', 'https://*.itunes.apple.com'] as const;

/**
 * Content-Security-Policy of the web app (docs/product.md#screens): scripts only from this origin
 * (no inline script, no eval); images and media from this origin and the store's hosts; `blob:` for
 * hls.js, which plays HLS through MediaSource object URLs; fetches to this origin (the API) and the
 * store's video hosts (hls.js downloads playlists and segments). Inline styles stay allowed: Radix
 * and react-remove-scroll inject small `<style>` elements.
 */
export const WEB_CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', ...STORE_MEDIA_HOSTS],
  mediaSrc: ["'self'", 'blob:', ...STORE_MEDIA_HOSTS],
  connectSrc: ["'self'", ...STORE_MEDIA_HOSTS],
  fontSrc: ["'self'", 'data:'],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** True for the API's own paths, which the web app must never answer. */
function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** True when the last segment names a file (`/assets/index-abc.js`, `/help/step-1.png`). */
function namesFile(pathname: string): boolean {
  return /\/[^/]+\.[a-z0-9]+$/i.test(pathname);
}

/** The decoded path of a request URL, or null when it does not decode. */
function decodePathname(url: string): string | null {
  try {
    return decodeURIComponent(url.split('?')[0] ?? '/');
  } catch {
    return null;
  }
}

/**
 * Serves the built web app (`config.WEB_DIST_DIR`, normally `apps/web/dist`) with security
 * headers (helmet + the CSP above) on every answer of this plugin:
 * - files of the build, read on each request (hashed `/assets/*` cached for a year, the rest
 *   revalidated), precompressed at build and sent in the coding Accept-Encoding asks for (br,
 *   gzip); a missing file answers the JSON 404;
 * - any other GET that is not under `/api` and does not name a file: `index.html`, so the
 *   client router handles `/`, `/results/:id`, `/admin` and its own 404 page; shared pages
 *   (`/s/{token}`) carry `X-Robots-Tag: noindex, nofollow` and `Referrer-Policy: no-referrer`.
 * When the folder has no `index.html` (not built, or WEB_DIST_DIR empty) nothing is served
 * and a warning says how to build it.
 */
export const webRoutes: FastifyPluginAsyncZod = async (app) => {
  const root = app.config.WEB_DIST_DIR;
  if (!root || !existsSync(join(root, 'index.html'))) {
    app.log.warn(
      { root },
      'web app not served: no index.html (build it with `pnpm --filter @aso/web build`)',
    );
    return;
  }

  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: WEB_CSP_DIRECTIVES },
    // Store images are cross-origin without CORP headers; requiring them would blank every image.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Sent over HTTPS only, by the answer-headers plugin.
    strictTransportSecurity: false,
  });

  // `serve: false`: no routes per file found at start, so a rebuild with new hashed names is
  // served without a restart; the catch-all below sends files through `reply.sendFile`.
  await app.register(fastifyStatic, {
    root,
    serve: false,
    // The build writes `.br` and `.gz` beside each text asset (apps/web vite.config.ts): the
    // one Accept-Encoding prefers is sent as it is, with `Vary: accept-encoding`; without one
    // (or for a file without them) the plain file.
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      void reply.header(
        'cache-control',
        /[\\/]assets[\\/]/.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });

  app.get('/*', (req, reply) => {
    const pathname = decodePathname(req.url);
    if (pathname === null || isApiPath(pathname)) return reply.callNotFound();
    // A missing file answers the JSON 404 (sendFile calls the not-found handler), never the app.
    if (namesFile(pathname)) return reply.sendFile(pathname.slice(1));
    // A shared audit's page (`/s/{token}`): never indexed, its token never sent as a referrer.
    if (pathname.startsWith('/s/')) markShared(reply);
    return reply.sendFile('index.html');
  });
};
