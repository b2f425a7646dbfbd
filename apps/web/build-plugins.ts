/**
 * What the web app's production build (`vite build`) does beyond Vite's defaults, to keep library
 * code the browser never runs out of the first load (docs/BENCHMARKS.md, section 6). Both are
 * plugins that apply to `vite build` only, not to `vite dev` or the tests.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

/**
 * Vite plugin: React Router's production build. Its package exports resolve every import to the
 * development build (dev warnings switched on, their code and texts in the bundle); the
 * production build beside it differs only by that switch. The plugin aliases `react-router` to
 * it, or to nothing when the package has no such file (another layout in a later release: the
 * build then keeps the default).
 */
export function reactRouterProduction(): Plugin {
  return {
    name: 'aso:react-router-production',
    apply: 'build',
    config() {
      const development = fileURLToPath(import.meta.resolve('react-router'));
      const production = development.replace('/dist/development/', '/dist/production/');
      if (production === development || !existsSync(production)) return null;
      return { resolve: { alias: [{ find: /^react-router$/, replacement: production }] } };
    },
  };
}

/** What a left-out JSON Schema function throws if anything in the browser calls it. */
export const JSON_SCHEMA_LEFT_OUT = "zod's JSON Schema generation is not part of the web build";

/** The modules of zod's JSON Schema generation, as its classic schemas import them. */
const JSON_SCHEMA_MODULES = ['../core/json-schema-processors.js', '../core/to-json-schema.js'];
const CLASSIC_SCHEMAS = /[/\\]zod[/\\]v4[/\\]classic[/\\]schemas\.js$/;
const STUB_PREFIX = '\0zod-json-schema-left-out:';

/**
 * Source of a module with the same exports as the zod module at `realPath` (an absolute path),
 * none of which does anything: a function throws {@link JSON_SCHEMA_LEFT_OUT} when called (a
 * `create...Method` factory returns such a function, as zod calls those when a schema's
 * `~standard` is read), anything else is an empty object.
 */
export async function jsonSchemaStubSource(realPath: string): Promise<string> {
  const real = (await import(pathToFileURL(realPath).href)) as Record<string, unknown>;
  const lines = [
    `const leftOut = () => { throw new Error(${JSON.stringify(JSON_SCHEMA_LEFT_OUT)}); };`,
  ];
  Object.entries(real).forEach(([name, value], i) => {
    const stub =
      typeof value !== 'function'
        ? '{}'
        : /^create\w+Method$/.test(name)
          ? '() => leftOut'
          : 'leftOut';
    lines.push(`const e${i} = ${stub};`, `export { e${i} as ${JSON.stringify(name)} };`);
  });
  return lines.join('\n');
}

/**
 * Vite plugin: zod's classic schemas carry their JSON Schema generation (`toJSONSchema`, about
 * 18 KB minified) into every bundle that parses with them. The web app only parses; the api
 * (which documents its routes as JSON Schema) keeps the real modules. In the build, the two
 * modules as the classic schemas import them are replaced by {@link jsonSchemaStubSource}.
 */
export function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'aso:zod-without-json-schema',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !CLASSIC_SCHEMAS.test(importer) || !JSON_SCHEMA_MODULES.includes(source)) {
        return null;
      }
      return STUB_PREFIX + resolve(dirname(importer), source);
    },
    load(id) {
      return id.startsWith(STUB_PREFIX) ? jsonSchemaStubSource(id.slice(STUB_PREFIX.length)) : null;
    },
  };
}
