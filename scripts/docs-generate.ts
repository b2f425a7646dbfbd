/**
 * `pnpm docs:generate` writes the parts of the docs that are read from the code, so they cannot
 * drift from it: `docs/CONFIGURATION.md` (every environment variable of every process, from the
 * zod schemas of the processes' `env.ts`, described by the doc comments on their fields) and
 * the queue table of `docs/ARCHITECTURE.md` (from the job catalog of `@aso/queue` and the
 * processes' lock defaults). `pnpm docs:check` (run by `pnpm lint`, so by CI) regenerates them
 * in memory and exits 1 naming each committed file that differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import ts from 'typescript';
import { JOBS, QUEUES, QUEUE_WORKERS, type TQueueName, type TWorkerProcess } from '@aso/queue';
import { ZApiEnv } from '@aso/api';
import { ZCliEnv } from '@aso/cli';
import { ZWorkerEnv as ZScraperEnv } from '@aso/scraper';
import { ZWorkerEnv as ZAnalyzerEnv } from '@aso/analyzer';
import { ZWorkerEnv as ZCsvMergeEnv } from '@aso/csv-merge';
import { ZRenderEnv } from '@aso/render';
import { ZAscImportEnv, ZReencryptEnv } from '@aso/asc-import';

const ROOT = join(fileURLToPath(import.meta.url), '../..');

/** What is read of a zod 4 schema: its parse, and its definition (`_zod.def`). */
interface TSchema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false };
  /** zod's metadata of the schema (`.meta()`): `docDefault` documents a machine-bound default. */
  meta(): Record<string, unknown> | undefined;
}

/** A process and the schema its `env.ts` parses, with the file(s) holding its fields' docs. */
interface TProcessEnv {
  name: string;
  schema: TSchema;
  sources: string[];
}

const WORKER_BASE = ['packages/queue/src/worker-env.ts', 'packages/contracts/src/env.ts'];
const PROCESSES: TProcessEnv[] = [
  { name: 'api', schema: ZApiEnv, sources: ['services/api/src/env.ts', ...WORKER_BASE] },
  {
    name: 'scraper',
    schema: ZScraperEnv,
    sources: ['services/scraper/src/env.ts', ...WORKER_BASE],
  },
  {
    name: 'analyzer',
    schema: ZAnalyzerEnv,
    sources: ['services/analyzer/src/env.ts', ...WORKER_BASE],
  },
  {
    name: 'csv-merge',
    schema: ZCsvMergeEnv,
    sources: ['services/csv-merge/src/env.ts', ...WORKER_BASE],
  },
  { name: 'render', schema: ZRenderEnv, sources: ['services/render/src/env.ts', ...WORKER_BASE] },
  {
    name: 'asc-import',
    schema: ZAscImportEnv,
    sources: ['services/asc-import/src/env.ts', ...WORKER_BASE],
  },
  {
    name: '`pnpm secrets:reencrypt`',
    schema: ZReencryptEnv,
    sources: ['services/asc-import/src/env.ts'],
  },
  { name: '`pnpm aso`', schema: ZCliEnv, sources: ['apps/cli/src/env.ts'] },
];

/** Zod's internal definition of a schema (the fields read here are stable in zod 4). */
interface TDef {
  type: string;
  shape?: Record<string, TSchema>;
  innerType?: TSchema;
  in?: TSchema;
  schema?: TSchema;
}
const defOf = (schema: TSchema): TDef => (schema as unknown as { _zod: { def: TDef } })._zod.def;

/** The fields of an object schema, looking through pipes, refinements and defaults. */
function shapeOf(schema: TSchema): Record<string, TSchema> {
  for (let s: TSchema | undefined = schema; s;) {
    const def = defOf(s);
    if (def.type === 'object' && def.shape) return def.shape;
    s = def.in ?? def.innerType ?? def.schema;
  }
  throw new Error('not an object schema');
}

/** The doc comment of every upper-case property of one file, read once per file. */
const docsByFile = new Map<string, Map<string, string>>();

function fileFieldDocs(file: string): Map<string, string> {
  const known = docsByFile.get(file);
  if (known) return known;
  const docs = new Map<string, string>();
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
      const name = node.name.text;
      if (/^[A-Z][A-Z0-9_]+$/.test(name) && !docs.has(name)) {
        const comment = ts
          .getJSDocCommentsAndTags(node)
          .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
          .join(' ')
          .replace(/\{@link\s+([^}\s]+)\s*\}/g, '`$1`')
          .replace(/\s+/g, ' ')
          .trim();
        if (comment) docs.set(name, comment);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  docsByFile.set(file, docs);
  return docs;
}

/**
 * The doc comment of every upper-case property in `files` (`NAME: z...` and the fields of
 * spread helpers alike), first file first: a service's own comment wins over the shared one.
 */
function fieldDocs(files: string[]): Map<string, string> {
  const docs = new Map<string, string>();
  for (const file of files) {
    for (const [name, doc] of fileFieldDocs(file)) if (!docs.has(name)) docs.set(name, doc);
  }
  return docs;
}

/** The default of `field` as text, `required` when it has none, `unset` when it is optional. */
function defaultOf(field: TSchema): string {
  const documented = field.meta()?.docDefault;
  if (typeof documented === 'string') return documented;
  const parsed = field.safeParse(undefined);
  if (!parsed.success) return 'required';
  const value: unknown = parsed.data;
  if (value === undefined || value === null) return 'unset';
  if (typeof value === 'number') return value.toLocaleString('en-US');
  // A path under this checkout is written from the repository's root, the same in every clone.
  if (typeof value === 'string')
    return value === '' ? '""' : value.replaceAll(`${ROOT}/`, '{repo}/');
  return JSON.stringify(value);
}

/** The unit of a variable, from its name's suffix or its comment's "(unit" mention. */
function unitOf(name: string, doc: string): string {
  if (/_MS$/.test(name)) return 'ms';
  if (/_MB$/.test(name)) return 'MB';
  if (/_BYTES$/.test(name)) return 'bytes';
  if (/_DAYS$/.test(name)) return 'days';
  if (/_S$/.test(name)) return 's';
  if (/_PER_MIN$/.test(name)) return 'per minute';
  if (/_PER_HOUR$/.test(name)) return 'per hour';
  const mentioned = /\((ms|seconds|bytes|MB|KB|days|hours|minutes|ratio 0-1|percent 0-100)\b/.exec(
    doc,
  );
  return mentioned?.[1] ?? '';
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

interface TVariable {
  name: string;
  readers: string[];
  defaults: Map<string, string[]>;
  unit: string;
  doc: string;
}

/** Every variable of every process, in the order of first appearance. */
function variables(): TVariable[] {
  const byName = new Map<string, TVariable>();
  for (const proc of PROCESSES) {
    const docs = fieldDocs(proc.sources);
    for (const [name, field] of Object.entries(shapeOf(proc.schema))) {
      const doc = docs.get(name) ?? '';
      const v = byName.get(name) ?? {
        name,
        readers: [],
        defaults: new Map<string, string[]>(),
        unit: unitOf(name, doc),
        doc,
      };
      v.readers.push(proc.name);
      const d = defaultOf(field);
      v.defaults.set(d, [...(v.defaults.get(d) ?? []), proc.name]);
      if (!v.doc && doc) v.doc = doc;
      byName.set(name, v);
    }
  }
  return [...byName.values()];
}

function configurationDoc(): string {
  const rows = variables().map((v) => {
    const defaults =
      v.defaults.size === 1
        ? [...v.defaults.keys()][0]!
        : [...v.defaults].map(([d, procs]) => `${d} (${procs.join(', ')})`).join('; ');
    return `| \`${v.name}\` | ${cell(defaults)} | ${v.unit} | ${v.readers.join(', ')} | ${cell(v.doc)} |`;
  });
  return [
    '# Configuration',
    '',
    '<!-- Generated by `pnpm docs:generate` from the zod schemas of each process `env.ts`; edit those, not this file. -->',
    '',
    'Every process parses its environment once at start (docs/product.md#configuration) and',
    'stops naming the bad variable. Each variable below is read by the processes listed; a',
    'default that differs between processes is given per process. `unset` means optional',
    'with no value; `required` means the process does not start without it.',
    '',
    '| variable | default | unit | read by | meaning |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

/** The lock and stall check defaults of `process` (ms), from its environment schema. */
function lockDefaults(process: TWorkerProcess): string {
  const schema = PROCESSES.find((p) => p.name === process)!.schema;
  const shape = shapeOf(schema);
  return ['LOCK_DURATION_MS', 'STALLED_INTERVAL_MS']
    .map((name) => defaultOf(shape[name]!))
    .join(' / ');
}

function concurrencyText(queue: TQueueName): string {
  const { process, concurrency } = QUEUE_WORKERS[queue];
  if (typeof concurrency === 'number') return String(concurrency);
  const schema = PROCESSES.find((p) => p.name === process)!.schema;
  return `\`${concurrency}\` (${defaultOf(shapeOf(schema)[concurrency]!)})`;
}

interface TJobOptions {
  attempts?: number;
  backoff?: { type: string; delay?: number; jitter?: number };
  priority?: number;
  removeOnComplete?: boolean | { age?: number; count?: number };
  removeOnFail?: boolean | { age?: number; count?: number };
}

const seconds = (s: number) =>
  s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`;

function retention(keep: TJobOptions['removeOnComplete']): string {
  if (keep === true) return 'removed';
  if (!keep) return 'kept';
  const parts = [
    keep.age !== undefined && seconds(keep.age),
    keep.count && `at most ${keep.count}`,
  ];
  return parts.filter(Boolean).join(', ');
}

function retries(o: TJobOptions): string {
  const attempts = o.attempts ?? 1;
  if (!o.backoff || attempts === 1) return String(attempts);
  const jitter = o.backoff.jitter ? `, jitter ${o.backoff.jitter}` : '';
  return `${attempts}, ${o.backoff.type} from ${(o.backoff.delay ?? 0) / 1000} s${jitter}`;
}

function queueTable(): string {
  const rows: string[] = [];
  for (const queue of Object.values(QUEUES)) {
    const { process } = QUEUE_WORKERS[queue];
    for (const [name, def] of Object.entries(JOBS)) {
      if (def.queue !== queue) continue;
      const o = def.options as TJobOptions;
      rows.push(
        `| \`${queue}\` | \`${name}\` | ${process} | ${concurrencyText(queue)} | ${lockDefaults(process)} | ${retries(o)} | ${o.priority ?? '–'} | ${retention(o.removeOnComplete)} / ${retention(o.removeOnFail)} |`,
      );
    }
  }
  return [
    '| queue | job | process | concurrency | lock / stall check (ms) | attempts, backoff | priority | completed / failed kept |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

const QUEUES_START =
  '<!-- queues:start (generated by `pnpm docs:generate` from the job catalog) -->';
const QUEUES_END = '<!-- queues:end -->';

function architectureDoc(current: string): string {
  const start = current.indexOf(QUEUES_START);
  const end = current.indexOf(QUEUES_END);
  if (start < 0 || end < start) {
    throw new Error(`docs/ARCHITECTURE.md lacks the ${QUEUES_START} ... ${QUEUES_END} markers`);
  }
  return `${current.slice(0, start + QUEUES_START.length)}\n\n${queueTable()}\n\n${current.slice(end)}`;
}

async function formatted(file: string, text: string): Promise<string> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...options, filepath: file });
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const architecture = join(ROOT, 'docs/ARCHITECTURE.md');
  const outputs: [string, string][] = [
    [join(ROOT, 'docs/CONFIGURATION.md'), configurationDoc()],
    [architecture, architectureDoc(readFileSync(architecture, 'utf8'))],
  ];
  const stale: string[] = [];
  for (const [file, text] of outputs) {
    const next = await formatted(file, text);
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // A missing file is stale.
    }
    if (current === next) continue;
    stale.push(relative(ROOT, file));
    if (!check) writeFileSync(file, next);
  }
  if (check && stale.length > 0) {
    console.error(`Out of date with the code: ${stale.join(', ')}. Run pnpm docs:generate.`);
    process.exit(1);
  }
  console.log(
    stale.length === 0
      ? 'docs are up to date'
      : `${check ? 'stale' : 'wrote'}: ${stale.join(', ')}`,
  );
}

await main();
