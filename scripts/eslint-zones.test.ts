import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The boundary rules of eslint.config.js (docs/ARCHITECTURE.md#boundaries), run through
 * ESLint's Node API on planted code: each planted file is linted as if it sat at its path,
 * and must be refused by the named rule. Only the import rules run, without type information:
 * the planted files exist nowhere for the type checker, and the import rules resolve modules
 * themselves.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BOUNDARY_RULES = new Set([
  'import-x/no-restricted-paths',
  'import-x/no-relative-packages',
  'import-x/no-extraneous-dependencies',
  'no-restricted-imports',
]);

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
  },
  ruleFilter: ({ ruleId }) => BOUNDARY_RULES.has(ruleId),
});

/** The rule ids ESLint reports on `code` linted as the file at `filePath` (from the root). */
async function rulesReported(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  if (!result) throw new Error(`no lint result for ${filePath}`);
  const fatal = result.messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${filePath}: ${fatal.message}`);
  return [...new Set(result.messages.map((m) => m.ruleId ?? 'unknown'))].sort();
}

// The first lint loads the parser and the resolver's view of every tsconfig.
describe('ESLint boundary zones', { timeout: 120_000 }, () => {
  it('refuses a package importing a service', async () => {
    expect(
      await rulesReported(
        'packages/db/src/planted.ts',
        "import { startScraper } from '@aso/scraper';\nexport const planted = startScraper;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  it('refuses a package importing an app or the benchmarks', async () => {
    expect(
      await rulesReported(
        'packages/aso-rules/src/planted.ts',
        "export * from '../../../bench/src/harness/bench.system';\n",
      ),
    ).toEqual(['import-x/no-relative-packages', 'import-x/no-restricted-paths']);
    expect(
      await rulesReported(
        'packages/analytics/src/planted.ts',
        "export * from '../../../apps/web/src/lib/api';\n",
      ),
    ).toEqual(['import-x/no-relative-packages', 'import-x/no-restricted-paths']);
  });

  it("refuses a service's code importing another service, even by its package name", async () => {
    expect(
      await rulesReported(
        'services/api/src/planted.ts',
        "import { startScraper } from '@aso/scraper';\nexport const planted = startScraper;\n",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
  });

  it('refuses a relative import crossing into another package', async () => {
    expect(
      await rulesReported(
        'packages/db/src/planted.ts',
        "export { csvCellText } from '../../contracts/src/csv-cell';\n",
      ),
    ).toEqual(['import-x/no-relative-packages']);
  });

  it('refuses a workspace import its package.json does not declare', async () => {
    expect(
      await rulesReported(
        'packages/webhook/src/planted.ts',
        "import type { TAudit } from '@aso/contracts';\nexport type TPlanted = TAudit;\n",
      ),
    ).toEqual(['import-x/no-extraneous-dependencies']);
  });

  it("refuses the browser suite reaching into a service's sources", async () => {
    expect(
      await rulesReported(
        'e2e/planted.ts',
        "export { parseApiEnv } from '../services/api/src/env';\n",
      ),
    ).toEqual(['import-x/no-relative-packages', 'import-x/no-restricted-paths']);
    expect(
      await rulesReported('e2e/planted.ts', "export { parseApiEnv } from '@aso/api/src/env';\n"),
    ).toEqual(['no-restricted-imports']);
  });

  it("refuses another service's tests reaching into a service's sources", async () => {
    expect(
      await rulesReported(
        'services/api/test/planted.ts',
        "export { startScraper } from '../../scraper/src/service';\n",
      ),
    ).toEqual(['import-x/no-relative-packages', 'import-x/no-restricted-paths']);
  });

  it("passes imports through a package's declared entries", async () => {
    expect(
      await rulesReported(
        'e2e/planted.ts',
        "export { parseApiEnv } from '@aso/api';\nexport { startScraper } from '@aso/scraper';\n",
      ),
    ).toEqual([]);
    expect(
      await rulesReported(
        'services/api/test/planted.ts',
        "export { startScraper } from '@aso/scraper';\nexport { CONSTRUCTED_APP } from '@aso/appstore/recordings';\n",
      ),
    ).toEqual([]);
    expect(
      await rulesReported(
        'packages/db/src/planted.ts',
        "export { csvCellText } from '@aso/contracts';\n",
      ),
    ).toEqual([]);
  });
});
