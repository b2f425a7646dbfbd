import { gzipSync } from 'node:zlib';
import { init, parse } from 'es-module-lexer';
import { Parser } from 'htmlparser2';

/** What `index.html` loads on the first page view: module scripts, modulepreloads, stylesheets (paths as written). */
export interface THtmlAssets {
  scripts: string[];
  modulepreloads: string[];
  stylesheets: string[];
}

/** Reads the assets of a built `index.html` (Vite output) with htmlparser2. */
export function htmlAssets(html: string): THtmlAssets {
  const out: THtmlAssets = { scripts: [], modulepreloads: [], stylesheets: [] };
  const parser = new Parser({
    onopentag(name, attrs) {
      if (name === 'script' && attrs.type === 'module' && attrs.src) out.scripts.push(attrs.src);
      if (name === 'link' && attrs.href) {
        const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
        if (rel.includes('modulepreload')) out.modulepreloads.push(attrs.href);
        if (rel.includes('stylesheet')) out.stylesheets.push(attrs.href);
      }
    },
  });
  parser.write(html);
  parser.end();
  return out;
}

/** Import specifiers of a JS module: static (`import … from`, `export … from`, `import '…'`) and dynamic (`import('…')` with a literal). */
export async function moduleImports(
  code: string,
): Promise<{ static: string[]; dynamic: string[] }> {
  await init;
  const [imports] = parse(code);
  const out = { static: [] as string[], dynamic: [] as string[] };
  for (const i of imports) {
    if (i.n === undefined) continue;
    // d === -1: static import; d >= 0: dynamic import(); -2: import.meta
    if (i.d === -1) out.static.push(i.n);
    else if (i.d >= 0) out.dynamic.push(i.n);
  }
  return out;
}

/** Joins a relative specifier to the directory of `from` ('assets/a.js' + './b.js' -> 'assets/b.js'); root paths lose their '/'. */
export function resolveAsset(from: string, specifier: string): string | null {
  if (/^[a-z]+:/i.test(specifier)) return null;
  if (specifier.startsWith('/')) return specifier.slice(1);
  if (!specifier.startsWith('.')) return null;
  const parts = from.split('/').slice(0, -1);
  for (const seg of specifier.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

/**
 * The files a browser must fetch to run `entries` (dist-relative paths): the entries and
 * everything they import statically, transitively. Dynamic imports are left out (lazy).
 */
export async function staticClosure(
  entries: readonly string[],
  read: (file: string) => string,
): Promise<Set<string>> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.js')) continue;
    for (const spec of (await moduleImports(read(file))).static) {
      const dep = resolveAsset(file, spec);
      if (dep && !seen.has(dep)) queue.push(dep);
    }
  }
  return seen;
}

/** Sizes of a set of files: raw bytes and gzip bytes (zlib default level 6, as most servers compress). */
export interface TSizes {
  files: string[];
  rawBytes: number;
  gzipBytes: number;
}

/** Sums raw and gzip sizes of `files` (each compressed on its own, as served). */
export function sizeOf(files: Iterable<string>, readBytes: (file: string) => Buffer): TSizes {
  const list = [...files].sort();
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const f of list) {
    const bytes = readBytes(f);
    rawBytes += bytes.length;
    gzipBytes += gzipSync(bytes).length;
  }
  return { files: list, rawBytes, gzipBytes };
}

/** A string only ECharts' code holds: it tags chart DOM nodes with this attribute. */
export const ECHARTS_MARKER = '_echarts_instance_';

/** What the web build loads first and what the dashboard adds lazily. */
export interface TBundleReport {
  firstLoadJs: TSizes;
  firstLoadCss: TSizes;
  /** The lazily loaded dashboard chunk plus its static imports not already loaded; null when no lazy chunk brings ECharts. */
  dashboard: TSizes | null;
  /** The dynamically imported chunk that brings ECharts (dist-relative), or null. */
  dashboardChunk: string | null;
  /** First-load files that hold ECharts (should be none). */
  echartsInFirstLoad: string[];
  /** Every JS file of the build. */
  allJs: TSizes;
}

/** File name of the web app's dashboard tab chunk (Vite names a chunk after its module, `dashboard-tab.tsx`). */
export const DASHBOARD_CHUNK_NAME = /(^|\/)dashboard-tab-[^/]*\.js$/;

/**
 * Analyses a Vite build from `index.html` (given as text) and its files (dist-relative paths):
 * the first load (module scripts and modulepreloads of index.html with their static imports;
 * stylesheets), and the dashboard chunk (the first-load module's dynamic import that brings a
 * file holding {@link ECHARTS_MARKER}, with the static imports it adds). Other screens may
 * bring ECharts too (a watched app's timeline): the dynamic import named `dashboard` (by
 * default {@link DASHBOARD_CHUNK_NAME}) is taken first, else the first in name order.
 */
export async function analyzeBundle(
  indexHtml: string,
  jsFiles: readonly string[],
  readBytes: (file: string) => Buffer,
  dashboard: RegExp = DASHBOARD_CHUNK_NAME,
): Promise<TBundleReport> {
  const read = (f: string) => readBytes(f).toString('utf8');
  const assets = htmlAssets(indexHtml);
  const entries = [...assets.scripts, ...assets.modulepreloads]
    .map((s) => resolveAsset('index.html', s))
    .filter((s): s is string => s !== null);
  const first = await staticClosure(entries, read);
  const echartsFiles = jsFiles.filter((f) => read(f).includes(ECHARTS_MARKER));
  const echartsInFirstLoad = echartsFiles.filter((f) => first.has(f));
  // The dashboard is the chunk that a first-load module imports dynamically and that brings
  // ECharts with it (in its own code or through its static imports).
  const dynamicTargets = new Set<string>();
  for (const f of first) {
    if (!f.endsWith('.js')) continue;
    for (const spec of (await moduleImports(read(f))).dynamic) {
      const target = resolveAsset(f, spec);
      if (target && !first.has(target)) dynamicTargets.add(target);
    }
  }
  let dashboardChunk: string | null = null;
  let dashboardSizes: TSizes | null = null;
  const named = (f: string) => (dashboard.test(f) ? 0 : 1);
  const candidates = [...dynamicTargets].sort((a, b) => named(a) - named(b) || a.localeCompare(b));
  for (const target of candidates) {
    const lazy = [...(await staticClosure([target], read))].filter((f) => !first.has(f));
    if (lazy.some((f) => echartsFiles.includes(f))) {
      dashboardChunk = target;
      dashboardSizes = sizeOf(lazy, readBytes);
      break;
    }
  }
  return {
    firstLoadJs: sizeOf(
      [...first].filter((f) => f.endsWith('.js')),
      readBytes,
    ),
    firstLoadCss: sizeOf(
      assets.stylesheets
        .map((s) => resolveAsset('index.html', s))
        .filter((s): s is string => s !== null),
      readBytes,
    ),
    dashboard: dashboardSizes,
    dashboardChunk,
    echartsInFirstLoad,
    allJs: sizeOf(jsFiles, readBytes),
  };
}
