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

/**
 * The first group of projects runs first, two files at a time: every integration file has a
 * database and a Redis prefix of its own, and the fault and cluster files start their own
 * servers, so they share nothing; most of their time is spent waiting on PostgreSQL, Redis
 * and the workers, which a second file fills. (A project's `maxWorkers` must match its
 * group's.)
 */
const FIRST_GROUP = { maxWorkers: 2, sequence: { groupOrder: 0 } } as const;

// One runner, seven projects: `pnpm test` runs them all; `--project
// unit|components|integration|abuse|faults|cluster|browser` runs one. Integration files get their own database and Redis
// prefix from @aso/testkit.
export default defineConfig({
  test: {
    projects: [
      {
        ...sources,
        test: {
          name: 'unit',
          include: [
            ...src.map((g) => `${g}/*.test.{ts,tsx}`),
            'scripts/*.test.ts',
            'deploy/**/*.test.ts',
          ],
          exclude: [
            '**/*.int.test.ts',
            '**/*.abuse.test.ts',
            '**/*.e2e.test.ts',
            '**/*.component.test.tsx',
            '**/node_modules/**',
          ],
          environment: 'node',
          // A few cases compare years of generated rows; on a busy 2-core machine they need
          // more than the default 5 s (a timeout here catches a hang, not slowness).
          testTimeout: 30_000,
          ...FIRST_GROUP,
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
          // Lazily loaded screens (the date picker's calendar) are transformed on first use,
          // which takes seconds on a busy machine; a timeout here catches a hang, not slowness.
          testTimeout: 30_000,
          ...FIRST_GROUP,
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
          ...FIRST_GROUP,
        },
      },
      {
        ...sources,
        test: {
          // What one account can throw at the system (limits, quotas, fair rendering): in
          // process against the real PostgreSQL and Redis, and the system's processes.
          name: 'abuse',
          include: [...src.map((g) => `${g}/*.abuse.test.ts`), 'faults/**/*.abuse.test.ts'],
          globalSetup: ['packages/testkit/src/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Alone: its cases measure how others' requests fare while one account floods.
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        ...sources,
        test: {
          // The fault suite (faults/): the whole system as processes, on a Redis of its own (and,
          // for the failover case, on a Redis Cluster of its own or the one REDIS_CLUSTER_NODES names).
          name: 'faults',
          include: ['faults/**/*.fault.test.ts'],
          globalSetup: ['packages/testkit/src/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          pool: 'forks',
          // One file, its cases in order; it runs beside the first group's files, which use
          // other databases and another Redis (its processes spend most of a case waiting
          // for a lock to expire).
          ...FIRST_GROUP,
        },
      },
      {
        ...sources,
        test: {
          // The whole system on a Redis Cluster (cluster/): 3 masters + 3 replicas of its own,
          // or the cluster named by REDIS_CLUSTER_NODES.
          name: 'cluster',
          include: ['cluster/**/*.cluster.test.ts'],
          globalSetup: ['packages/testkit/src/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          pool: 'forks',
          ...FIRST_GROUP,
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
          // Last and one file at a time: the files share one system (and its admin code's
          // limits), and Chromium wants the cores to itself.
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
