/**
 * Summaries of V8 CPU profiles (`node --cpu-prof`, the `.cpuprofile` JSON of the Chrome
 * DevTools protocol: `nodes` with `callFrame` and `hitCount`), to say what dominates a
 * process's CPU time: self time per function and per package.
 */

/** The parts of a `.cpuprofile` read here. */
export interface TCpuProfile {
  nodes: {
    id: number;
    hitCount?: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  startTime: number;
  endTime: number;
}

/** Share of sampled time, percent 0-100 of the non-idle samples. */
export interface TShare {
  name: string;
  pct: number;
}

/** What a profile says. */
export interface TProfileSummary {
  /** Sampled time that was not idle (ms). */
  busyMs: number;
  /** Self time by package or area, largest first. */
  byPackage: TShare[];
  /** Self time by function (`name (file:line)`), largest first. */
  byFunction: TShare[];
}

/**
 * The package or area a script belongs to: the npm package name for node_modules (pnpm layout
 * too), the workspace folder for this repository's code (`services/api`, `packages/queue`),
 * `node:internal` for Node's own code, or the V8 pseudo-frame name ('(garbage collector)').
 */
export function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node:internal';
  const ws = /\/(services|packages|apps|bench)\/([^/]+)\//.exec(url);
  if (ws) return `${ws[1]}/${ws[2]}`;
  return url.replace(/^file:\/\//, '');
}

const IDLE = new Set(['(idle)', '(program)']);

/** Summarises `profile`: `top` entries per list. */
export function summarizeProfile(profile: TCpuProfile, top = 8): TProfileSummary {
  const total = profile.nodes.reduce(
    (a, n) => a + (IDLE.has(n.callFrame.functionName) ? 0 : (n.hitCount ?? 0)),
    0,
  );
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    const { functionName, url, lineNumber } = n.callFrame;
    if (hits === 0 || IDLE.has(functionName)) continue;
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
    const file = url ? url.split('/').slice(-1)[0] : '';
    const fn = `${functionName || '(anonymous)'}${file ? ` (${pkg === file ? file : `${pkg}/${file}`}:${lineNumber + 1})` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
  }
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({ name, pct: total ? (hits / total) * 100 : 0 }));
  const allHits = profile.nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0);
  const durationMs = (profile.endTime - profile.startTime) / 1000;
  return {
    busyMs: allHits ? (durationMs * total) / allHits : 0,
    byPackage: rank(byPackage),
    byFunction: rank(byFunction),
  };
}

/** One line for a report: 'api (12.3 s busy): pino 31 %, fastify 12 %, …; top functions: …'. */
export function describeProfile(name: string, s: TProfileSummary, top = 5): string {
  const pct = (x: TShare) => `${x.name} ${x.pct.toFixed(0)} %`;
  return (
    `${name} CPU profile (${(s.busyMs / 1000).toFixed(1)} s busy): by package ${s.byPackage.slice(0, top).map(pct).join(', ')}; ` +
    `top functions ${s.byFunction.slice(0, top).map(pct).join(', ')}.`
  );
}
