import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ZReplayEnv } from '@aso/appstore/node';
import { ZApiEnv } from '../src/env';
import { ZWorkerEnv as ZScraperEnv } from '@aso/scraper';
import { ZWorkerEnv as ZAnalyzerEnv } from '@aso/analyzer';
import { ZWorkerEnv as ZCsvMergeEnv } from '@aso/csv-merge';
import { ZRenderEnv } from '@aso/render';
import { ZAscImportEnv } from '@aso/asc-import';

// Shared by the ops-*.test.ts files (docs/OPERATIONS.md): the repository's container definitions,
// read as they are, and the services' environment schemas they must agree with.

/** Repository root (this file is services/api/test/ops.helpers.ts). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A file of the repository as text. */
export const readRepoFile = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

/** The worker services of the worker image, by compose service name (= WORKER value). */
export const WORKERS = ['scraper', 'analyzer', 'csv-merge', 'render', 'asc-import'] as const;

/** Each compose service's environment schema (what the process behind it parses). */
export const SERVICE_SCHEMAS = {
  api: ZApiEnv,
  scraper: ZScraperEnv,
  analyzer: ZAnalyzerEnv,
  'csv-merge': ZCsvMergeEnv,
  render: ZRenderEnv,
  'asc-import': ZAscImportEnv,
  replay: ZReplayEnv,
} satisfies Record<string, z.ZodObject>;

/** Variables that the worker image's entrypoint reads, not the service (ops/worker-entrypoint.sh). */
export const ENTRYPOINT_KEYS = ['WORKER'] as const;

/** A compose service as far as these tests read it. */
export interface TComposeService {
  image?: string;
  build?: {
    context: string;
    dockerfile: string;
    target?: string;
    args?: Record<string, string | null>;
  };
  command?: string[];
  environment?: Record<string, string | number | null>;
  env_file?: { path: string; required: boolean }[];
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; start_period?: string };
  profiles?: string[];
  container_name?: string;
  init?: boolean;
  restart?: string;
}

/** docker-compose.yml parsed with YAML merge keys (`<<: *anchor`), as Compose reads it. */
export function readCompose(): {
  services: Record<string, TComposeService>;
  volumes: Record<string, unknown>;
} {
  return parseYaml(readRepoFile('docker-compose.yml'), { merge: true }) as {
    services: Record<string, TComposeService>;
    volumes: Record<string, unknown>;
  };
}

/** Every `${NAME...}` interpolation in `text`: name and its `:-` default (undefined without one). */
export function interpolations(text: string): { name: string; fallback: string | undefined }[] {
  return [...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)(?::-([^}]*))?\}/g)].map((m) => ({
    name: m[1]!,
    fallback: m[2],
  }));
}

/** `value` with every `${NAME:-default}` replaced by `vars[NAME]` or else its default. */
export function interpolate(value: string, vars: Record<string, string> = {}): string {
  return value.replace(
    /\$\{([A-Z][A-Z0-9_]*)(?::-([^}]*))?\}/g,
    (_m, name: string, fallback?: string) => {
      return vars[name] ?? fallback ?? '';
    },
  );
}

/**
 * The environment a compose service's container gets from docker-compose.yml with no `.env`
 * and nothing in the shell: interpolations at their defaults; valueless entries (passed only
 * when given) left out.
 */
export function composeEnvironment(service: TComposeService): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(service.environment ?? {})) {
    if (v === null) continue;
    out[k] = interpolate(String(v));
  }
  return out;
}

/** The stage of a Dockerfile named `name` (from its FROM line to the next), as text. */
export function dockerStage(dockerfile: string, name: string): string {
  const stages = dockerfile.split(/^(?=FROM\s)/m);
  const stage = stages.find((s) =>
    new RegExp(`^FROM\\s+\\S+\\s+AS\\s+${name}\\s*$`, 'mi').test(s.split('\n')[0]!),
  );
  if (!stage) throw new Error(`no stage ${name}`);
  return stage;
}

/** The JSON-array instruction `kind` (CMD, ENTRYPOINT, HEALTHCHECK ... CMD) of a stage. */
export function execForm(stage: string, kind: 'CMD' | 'ENTRYPOINT' | 'HEALTHCHECK'): string[] {
  const joined = stage.replace(/\\\n\s*/g, ' ');
  const line = joined.split('\n').find((l) => l.startsWith(`${kind} `));
  if (!line) throw new Error(`no ${kind}`);
  const json =
    kind === 'HEALTHCHECK' ? line.slice(line.indexOf(' CMD ') + 5) : line.slice(kind.length + 1);
  return JSON.parse(json) as string[];
}

/** `ENV` settings of a stage (the `KEY=value` pairs of its ENV instructions). */
export function stageEnv(stage: string): Record<string, string> {
  const joined = stage.replace(/\\\n\s*/g, ' ');
  const out: Record<string, string> = {};
  for (const line of joined.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const m of line.slice(4).matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) out[m[1]!] = m[2]!;
  }
  return out;
}

/** One runtime tree a Dockerfile builds: `pnpm deploy` of a package into `/out/<dir>`. */
export interface TDeployStep {
  /** The pnpm arguments, with `/out/<dir>` as written in the Dockerfile. */
  args: string[];
  pkg: string;
  dir: string;
}

/** The `pnpm ... deploy ... /out/<dir>` commands of a Dockerfile, in order. */
export function deploySteps(dockerfile: string): TDeployStep[] {
  const text = dockerfile.replace(/\\\n\s*/g, ' ');
  return [
    ...text.matchAll(
      /pnpm ((?:--\S+ )*--filter (@aso\/[\w-]+) deploy (?:--\S+ )*\/out\/([\w-]+))/g,
    ),
  ].map((m) => ({
    args: m[1]!.split(' '),
    pkg: m[2]!,
    dir: m[3]!,
  }));
}

/** A free TCP port on loopback (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** The value of one Prometheus sample (`name{labels} value`) whose labels include `labels`; 0 when absent. */
export function sample(
  exposition: string,
  name: string,
  labels: Record<string, string> = {},
): number {
  for (const line of exposition.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = new Map<string, string>();
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) have.set(l[1]!, l[2]!);
    if (Object.entries(labels).every(([k, v]) => have.get(k) === v)) return Number(m[3]);
  }
  return 0;
}
