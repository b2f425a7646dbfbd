// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = import.meta.dirname;
const BOUNDARIES = 'docs/ARCHITECTURE.md#boundaries';

/** @param {string} dir a folder of the repository @returns {any} its package.json */
const packageJsonOf = (dir) =>
  JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8'));

/** @param {string} parent @returns {string[]} the workspace packages of `parent` (`services/api`, ...) */
const packagesIn = (parent) =>
  readdirSync(path.join(ROOT, parent), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(ROOT, parent, e.name, 'package.json')))
    .map((e) => `${parent}/${e.name}`);

const SERVICES = packagesIn('services');

/**
 * The files a package's `exports` declares (every condition's target, `./src/index.ts`...),
 * relative to the package's folder: the only files of a service that code outside it may import.
 * @param {string} dir @returns {string[]}
 */
function exportedFiles(dir) {
  /** @type {Set<string>} */
  const files = new Set();
  /** @param {unknown} v */
  const walk = (v) => {
    if (typeof v === 'string') files.add(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(packageJsonOf(dir).exports);
  return [...files];
}

/**
 * The boundaries between the workspace's parts (docs/ARCHITECTURE.md#boundaries), on resolved
 * paths, so an import by package name and one by relative path are judged alike.
 */
const ZONES = [
  {
    target: 'packages',
    from: ['services', 'apps', 'bench'],
    message: `A package never imports a service, an app or the benchmarks (${BOUNDARIES}).`,
  },
  ...SERVICES.map((service) => ({
    target: `${service}/src`,
    from: [...SERVICES.filter((s) => s !== service), 'apps', 'bench'],
    message: `A service's code never imports another service, an app or the benchmarks: what two services share belongs in a package (${BOUNDARIES}).`,
  })),
  ...SERVICES.map((service) => ({
    target: [
      ...SERVICES.filter((s) => s !== service).map((s) => `${s}/test`),
      'apps',
      'bench',
      'e2e',
      'faults',
      'cluster',
      'scripts',
      'deploy',
    ],
    from: service,
    except: exportedFiles(service),
    message: `Outside ${service}, use it only through the entries its package.json \`exports\` declares, imported by its package name (${BOUNDARIES}).`,
  })),
];

/** Tools the root package.json provides to every package (vitest, pg...): allowed anywhere. */
const ROOT_TOOLS = Object.keys(packageJsonOf('.').devDependencies).filter(
  (name) => !name.startsWith('@aso/'),
);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.turbo/**',
      '**/artifacts/**',
      '**/*.config.js',
      '**/*.config.ts',
      'apps/web/public/**',
      // The command line's bin: one import of the built dist/main.js, outside any tsconfig.
      'apps/cli/bin/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      // One naming rule for exported types (CONTRIBUTING.md): `T` + PascalCase, as the types
      // inferred from zod schemas (`ZAudit` -> `TAudit`) are named.
      '@typescript-eslint/naming-convention': [
        'error',
        {
          selector: ['typeAlias', 'interface'],
          modifiers: ['exported'],
          format: ['PascalCase'],
          prefix: ['T'],
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: `Read configuration only in the service's env.ts (${BOUNDARIES}).`,
        },
      ],
    },
  },
  {
    // No import cycles, within a package or across packages: a cycle hides which module owns
    // what, and makes load order decide behaviour. And the boundaries between packages,
    // services, apps and the suites (docs/ARCHITECTURE.md#boundaries).
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', '*/*/tsconfig.json', 'bench/tsconfig.json'],
          conditionNames: ['@aso/source', 'import', 'types', 'default'],
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: ZONES }],
      // A relative path into another package skips its declared entries and its dependencies.
      'import-x/no-relative-packages': 'error',
      // Every import is declared in the importing file's own package.json (type imports too: the
      // compiler resolves them through it); the root's tools are there for every package.
      'import-x/no-extraneous-dependencies': [
        'error',
        { includeTypes: true, whitelist: ROOT_TOOLS },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@aso/*/src', '@aso/*/src/**', '@aso/*/test/**', '@aso/*/dist/**'],
              message: `Import a workspace package by its name and declared entries (${BOUNDARIES}).`,
            },
          ],
        },
      ],
    },
  },
  {
    // Configuration parsing, test harnesses and scripts are the places allowed to read the environment.
    files: [
      '**/env.ts',
      '**/*.test.ts',
      '**/test/**',
      '**/testkit/src/**',
      'faults/**',
      'cluster/**',
      'scripts/**',
      'bench/**',
      'e2e/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
