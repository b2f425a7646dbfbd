import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

/**
 * The workspace's packages as a graph, from their package.json files: an edge for every
 * workspace package a package names in `dependencies`, `devDependencies`,
 * `optionalDependencies` or `peerDependencies` (docs/ARCHITECTURE.md#boundaries).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface TWorkspacePackage {
  name: string;
  /** Folder relative to the repository root (`packages/db`). */
  dir: string;
  /** Workspace packages named in `dependencies`. */
  runtime: string[];
  /** Workspace packages named in any dependency field. */
  all: string[];
}

const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
] as const;

/** The folders pnpm-workspace.yaml names: `dir/*` (its sub-folders with a package.json) or `dir`. */
function workspaceDirs(): string[] {
  const { packages } = parseYaml(readFileSync(path.join(ROOT, 'pnpm-workspace.yaml'), 'utf8')) as {
    packages: string[];
  };
  return packages.flatMap((pattern) => {
    if (!/^[\w.-]+(\/\*)?$/.test(pattern)) {
      throw new Error(`pnpm-workspace.yaml pattern '${pattern}': only 'dir' and 'dir/*' are read`);
    }
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(path.join(ROOT, parent), { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(path.join(ROOT, parent, e.name, 'package.json')))
      .map((e) => `${parent}/${e.name}`);
  });
}

function readWorkspace(): TWorkspacePackage[] {
  const manifests = workspaceDirs().map((dir) => ({
    dir,
    json: JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >,
  }));
  const names = new Set(manifests.map((m) => m.json.name as string));
  const workspaceNamesIn = (field: unknown) =>
    Object.keys((field ?? {}) as Record<string, string>).filter((n) => names.has(n));
  return manifests.map(({ dir, json }) => ({
    name: json.name as string,
    dir,
    runtime: workspaceNamesIn(json.dependencies),
    all: [...new Set(DEPENDENCY_FIELDS.flatMap((f) => workspaceNamesIn(json[f])))],
  }));
}

/**
 * The first dependency cycle of `edges` (package name -> names it depends on), as the names
 * along it with the first repeated at the end (`['@aso/db', '@aso/testkit', '@aso/db']`), or
 * `null` when the graph is acyclic.
 */
function findCycle(edges: ReadonlyMap<string, readonly string[]>): string[] | null {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    const at = path.indexOf(node);
    if (at >= 0) return [...path.slice(at), node];
    if (done.has(node)) return null;
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(node);
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

describe('workspace package graph', () => {
  const workspace = readWorkspace();
  const byName = new Map(workspace.map((p) => [p.name, p]));

  it('reads every workspace package', () => {
    const dirs = workspace.map((p) => p.dir);
    expect(dirs).toEqual(
      expect.arrayContaining(['packages/db', 'packages/testkit', 'services/api', 'bench']),
    );
    expect(byName.get('@aso/testkit')?.all).toEqual(
      expect.arrayContaining(['@aso/db', '@aso/queue']),
    );
  });

  it('finds a planted cycle through devDependencies', () => {
    const edges = new Map([
      ['@aso/db', ['@aso/contracts', '@aso/testkit']],
      ['@aso/testkit', ['@aso/db']],
      ['@aso/contracts', []],
    ]);
    expect(findCycle(edges)).toEqual(['@aso/db', '@aso/testkit', '@aso/db']);
    expect(findCycle(new Map([['@aso/testkit', ['@aso/db']]]))).toBeNull();
  });

  it('has no cycle through any dependency field', () => {
    expect(findCycle(new Map(workspace.map((p) => [p.name, p.all])))).toBeNull();
  });

  it('packages depend on no service, app or the benchmarks', () => {
    const above = new Set(
      workspace.filter((p) => !p.dir.startsWith('packages/')).map((p) => p.name),
    );
    const offending = workspace
      .filter((p) => p.dir.startsWith('packages/'))
      .flatMap((p) => p.all.filter((d) => above.has(d)).map((d) => `${p.name} -> ${d}`));
    expect(offending).toEqual([]);
  });

  it("a service's runtime dependencies name no other service", () => {
    const services = new Set(
      workspace.filter((p) => p.dir.startsWith('services/')).map((p) => p.name),
    );
    const offending = workspace
      .filter((p) => services.has(p.name))
      .flatMap((p) => p.runtime.filter((d) => services.has(d)).map((d) => `${p.name} -> ${d}`));
    expect(offending).toEqual([]);
  });
});
