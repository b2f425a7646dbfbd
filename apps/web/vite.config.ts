import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { reactRouterProduction, zodWithoutJsonSchema } from './build-plugins';

// The SPA is served by the api in production (`pnpm start`); in `vite dev` calls are proxied.
// Text assets are compressed once here, at build, as `.br` and `.gz` beside each file: the api
// serves the one the browser's Accept-Encoding asks for (@fastify/static `preCompressed`),
// so no request pays for compression.
export default defineConfig({
  plugins: [
    zodWithoutJsonSchema(),
    reactRouterProduction(),
    react(),
    tailwindcss(),
    compression({
      include: /\.(?:js|mjs|css|html|svg|json|webmanifest|ico)$/,
      // Every text asset, however small: the icon chunks a screen fetches are a few hundred
      // bytes each, and a compressed copy the browser asks for costs nothing at serving time.
      threshold: 0,
      algorithms: [
        defineAlgorithm('gzip', { level: 9 }),
        defineAlgorithm('brotliCompress', {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
        }),
      ],
    }),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    // Workspace packages from their sources (the `@aso/source` export condition), so the web
    // app builds without building them first.
    conditions: ['@aso/source', ...defaultClientConditions],
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  build: { sourcemap: true, chunkSizeWarningLimit: 1200 },
});
