import { existsSync } from 'node:fs';
import { build, type Alias, type Plugin, type Rollup, type UserConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  JSON_SCHEMA_LEFT_OUT,
  reactRouterProduction,
  zodWithoutJsonSchema,
} from '../build-plugins';

const ENTRY = '\0entry';

/** An entry parsing with zod's classic schemas, as the web app's contracts do. */
const entrySource = `
import { z } from 'zod';
const ZListing = z.object({ title: z.string().max(30), rating: z.number().nullable() });
export const parsed = ZListing.parse({ title: 'Spotify', rating: 4.8 });
export const refused = ZListing.safeParse({ title: 'x'.repeat(31), rating: null }).error.issues[0].message;
export const schemaOf = () => ZListing.toJSONSchema();
export const standardSchemaOf = () => ZListing['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
`;

/** Bundles {@link entrySource} (resolved from this package, like the app's code) with `plugins`. */
async function bundle(plugins: Plugin[]): Promise<string> {
  const entry: Plugin = {
    name: 'test-entry',
    resolveId: (id) => (id === ENTRY ? id : null),
    load: (id) => (id === ENTRY ? entrySource : null),
  };
  const output = (await build({
    configFile: false,
    root: new URL('..', import.meta.url).pathname,
    logLevel: 'silent',
    plugins: [entry, ...plugins],
    build: {
      write: false,
      minify: false,
      rollupOptions: { input: ENTRY, output: { format: 'es' }, preserveEntrySignatures: 'strict' },
    },
  })) as Rollup.RollupOutput;
  const [chunk] = output.output;
  if (chunk.type !== 'chunk') throw new Error('no chunk');
  return chunk.code;
}

type TEntry = {
  parsed: unknown;
  refused: string;
  schemaOf: () => unknown;
  standardSchemaOf: () => unknown;
};

const load = async (code: string) =>
  (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as TEntry;

describe('zodWithoutJsonSchema', () => {
  it('leaves JSON Schema generation out and parses as before', async () => {
    const [withPlugin, without] = await Promise.all([bundle([zodWithoutJsonSchema()]), bundle([])]);
    // The generator's texts are there without the plugin and gone with it.
    expect(without).toContain('https://json-schema.org/draft/2020-12/schema');
    expect(withPlugin).not.toContain('https://json-schema.org/draft/2020-12/schema');
    expect(without.length - withPlugin.length).toBeGreaterThan(15_000);

    const [stubbed, real] = await Promise.all([load(withPlugin), load(without)]);
    expect(stubbed.parsed).toEqual({ title: 'Spotify', rating: 4.8 });
    expect(stubbed.refused).toBe(real.refused);
    expect(real.schemaOf()).toMatchObject({ type: 'object', required: ['title', 'rating'] });
    expect(() => stubbed.schemaOf()).toThrow(JSON_SCHEMA_LEFT_OUT);
    // Reading `~standard` still works (zod builds its methods then); only calling one throws.
    expect(() => stubbed.standardSchemaOf()).toThrow(JSON_SCHEMA_LEFT_OUT);
  });
});

describe('reactRouterProduction', () => {
  it("points react-router alone at the package's production build, in builds only", () => {
    const plugin = reactRouterProduction();
    expect(plugin.apply).toBe('build');
    const config = (plugin.config as () => UserConfig | null)();
    const [alias] = (config?.resolve?.alias ?? []) as Alias[];
    expect(alias).toBeDefined();
    const find = alias?.find as RegExp;
    expect(find.test('react-router')).toBe(true);
    expect(find.test('react-router/dom')).toBe(false);
    expect(alias?.replacement).toMatch(/[/\\]dist[/\\]production[/\\]index\.mjs$/);
    expect(existsSync(alias?.replacement ?? '')).toBe(true);
  });
});
