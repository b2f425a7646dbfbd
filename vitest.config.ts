import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// `bench` is one package at the top level (not a folder of packages), so its own folders are listed too.
const src = [
  ...['apps', 'services', 'packages', 'bench'].map((d) => `${d}/*/{src,test}/**`),
  'bench/{src,test}/**',
];

// Tests run the workspace packages from their sources: the `@aso/source` export condition
// (package.json `exports`) points at `src/`, where `default` points at the built `dist/`. The
// `development` condition, which Vite applies outside production builds, points at `src/` too,
// so the global setups (loaded before any project's settings apply) read the sources as well.
const sources = {
  resolve: { conditions: ['@aso/source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['@aso/source', ...defaultServerConditions] } },
};

// One runner, five projects: `pnpm test` runs them all; `--project
// unit|components|integration|faults|browser` runs one. Integration files get their own database and Redis
// prefix from @aso/testkit.
export default defineConfig({
  test: {
    projects: [
      {
        ...sources,
        test: {
          name: 'unit',
          include: [...src.map((g) => `${g}/*.test.{ts,tsx}`), 'scripts/*.test.ts'],
          exclude: [
            '**/*.int.test.ts',
            '**/*.e2e.test.ts',
            '**/*.component.test.tsx',
            '**/node_modules/**',
          ],
          environment: 'node',
        },
      },
      {
        // The web app's stateful screens rendered with Testing Library in happy-dom's DOM.
        ...sources,
        resolve: {
          ...sources.resolve,
          alias: { '@': fileURLToPath(new URL('apps/web/src', import.meta.url)) },
        },
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'components',
          include: ['apps/web/src/**/*.component.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/src/test/component.setup.ts'],
        },
      },
      {
        ...sources,
        test: {
          name: 'integration',
          include: src.map((g) => `${g}/*.int.test.ts`),
          globalSetup: ['packages/testkit/src/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        ...sources,
        test: {
          // The fault suite (faults/): the whole system as processes, on a Redis of its own.
          name: 'faults',
          include: ['faults/**/*.fault.test.ts'],
          globalSetup: ['packages/testkit/src/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
      {
        ...sources,
        test: {
          name: 'browser',
          include: ['e2e/**/*.e2e.test.ts'],
          globalSetup: ['packages/testkit/src/global-setup.ts', 'e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
    ],
  },
});
