import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import Tinypool from 'tinypool';
import type { TUploadField } from '@aso/contracts';
import { CsvExportError } from './csv-export.error';
import { parseExport } from './export.parser';
import { ParsedExport } from './export-result';
import type { TFromParseThread, TParseTask, TToParseThread } from './export-parse.worker';

/**
 * Bytes of an upload handed to a parse thread and not yet taken by its parser: the most held
 * in messages and queues at once per file (the worker stays under 400 MB RSS).
 */
export const THREAD_IN_FLIGHT_BYTES = 2 * 1024 * 1024;

/** Young generation of a parse thread's heap (MB; V8's default here is 3 x 16). */
export const PARSE_THREAD_YOUNG_GENERATION_MB = 12;

/** The parse threads' code: the path of a built or bundled file exporting the task. */
export type TParseThreadScript = string;

/**
 * The parse threads' code. Built (`pnpm build`), it is
 * `dist/merge/export-parse.thread-entry.js` beside this module's bundle. From the sources
 * (tests, `pnpm dev`), `export-parse.thread-entry.ts` and what it imports are bundled into one
 * CommonJS file in a temporary folder by esbuild, a development dependency (about 0.1 s): a
 * thread loading the TypeScript sources through the tsx loader took about 0.5 s of CPU to
 * start. Returns the file and how to remove it again.
 */
async function parseThreadScript(): Promise<{ script: string; remove: () => Promise<void> }> {
  if (!import.meta.url.endsWith('.ts')) {
    const built = new URL('./merge/export-parse.thread-entry.js', import.meta.url);
    return { script: fileURLToPath(built), remove: async () => undefined };
  }
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./export-parse.thread-entry.ts', import.meta.url))],
    conditions: ['@aso/source'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    write: false,
    logLevel: 'silent',
  });
  const dir = await mkdtemp(join(tmpdir(), 'aso-parse-thread-'));
  const script = join(dir, 'export-parse.thread-entry.cjs');
  await writeFile(script, result.outputFiles[0]!.text);
  return { script, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Options of {@link ExportParsePool}. */
export interface TExportParsePoolOptions {
  /** Parse threads kept running (at least 1; `PARSE_THREADS`). */
  threads: number;
  /**
   * The threads' code (default: the built file, or the sources bundled by esbuild; tests pass
   * one that fails).
   */
  loadScript?: () => Promise<{ script: TParseThreadScript; remove: () => Promise<void> }>;
}

/** Options of one parse, as `parseExport`'s. */
export interface TThreadParseOptions {
  maxRows?: number;
  maxColumns?: number;
  pauseEveryMs?: number;
}

/**
 * Worker threads that parse exports, kept running between merges (tinypool): a merge hands
 * each of its files to a thread at once, so the merge worker's own thread only reads uploads
 * and stores datasets, concurrent merges parse on every core, and no merge pays for starting a
 * thread (about 60 ms of CPU each, more than parsing two real-size exports). Files beyond the
 * threads wait in the pool's queue, first come first served.
 *
 * The threads start with {@link start} (or the first parse); when they cannot be started
 * (their code cannot be built or found, threads refused), every parse runs on the calling
 * thread instead: slower, never wrong.
 */
export class ExportParsePool {
  private pool: Promise<{ pool: Tinypool; remove: () => Promise<void> } | null> | null = null;
  private closed = false;

  constructor(private readonly options: TExportParsePoolOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1) {
      throw new RangeError('threads must be a whole number >= 1');
    }
  }

  /**
   * Builds the threads' code and starts the threads (once); resolves once tasks can be queued
   * to them, or they were found unusable.
   */
  async start(): Promise<void> {
    await this.ready();
  }

  private ready() {
    this.pool ??= (this.options.loadScript ?? parseThreadScript)().then(
      ({ script, remove }) => {
        const pool = new Tinypool({
          filename: script,
          minThreads: this.options.threads,
          maxThreads: this.options.threads,
          // The script is self-contained: the threads need none of the process's flags (run
          // from the sources, its tsx loader would cost each thread about 0.5 s of CPU to start).
          execArgv: [],
          // Parsing makes short-lived garbage only; a small young generation keeps the threads'
          // share of the worker's RSS small (under 400 MB with both files in memory).
          resourceLimits: { maxYoungGenerationSizeMb: PARSE_THREAD_YOUNG_GENERATION_MB },
        });
        return { pool, remove };
      },
      () => null,
    );
    return this.pool;
  }

  /** The number of threads; 0 once they were found unusable (parses run on the caller). */
  async threads(): Promise<number> {
    return (await this.ready()) ? this.options.threads : 0;
  }

  /**
   * Parses one export in a parse thread (same rules, same errors as `parseExport`). The bytes
   * of `input` are copied to the thread in the pieces `input` yields, at most
   * {@link THREAD_IN_FLIGHT_BYTES} ahead of its parser, and the parsed rows come back as
   * transferred typed arrays (nothing is copied on the way back). `input` is read only here and
   * destroyed at the end; destroying it earlier (the merge stopped) stops the thread's parse.
   *
   * @throws CsvExportError as `parseExport` does; 'read_failed' when `input` fails.
   * @throws Error when the thread dies before it answered (e.g. out of memory), naming the field.
   */
  async parse(
    input: Readable,
    field: TUploadField,
    options: TThreadParseOptions = {},
  ): Promise<ParsedExport> {
    const ready = this.closed ? null : await this.ready();
    if (!ready) return parseExport(input, field, options);
    const { port1: port, port2 } = new MessageChannel();
    const task: TParseTask = { port: port2, field, ...options };
    let settled = false;
    /** Whether the thread answered (after which it no longer reads the port). */
    let answered = false;
    let inFlight = 0;
    let wakePump: (() => void) | null = null;
    const wake = () => {
      const resume = wakePump;
      wakePump = null;
      resume?.();
    };

    const result = new Promise<ParsedExport>((resolve, reject) => {
      /** Marks the parse answered (once) and frees a waiting pump; false when it already was. */
      const settle = () => {
        if (settled) return false;
        settled = true;
        wake();
        return true;
      };
      const fail = (error: Error) => {
        if (settle()) reject(error);
      };

      port.on('message', (message: TFromParseThread) => {
        if (message.kind !== 'consumed') answered = true;
        switch (message.kind) {
          case 'consumed':
            inFlight -= message.bytes;
            if (inFlight < THREAD_IN_FLIGHT_BYTES) wake();
            return;
          case 'parsed':
            if (!settle()) return;
            try {
              resolve(ParsedExport.fromData(message.data));
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
            return;
          case 'refused':
            fail(new CsvExportError(field, message.reason, message.detail));
            return;
          case 'failed':
            fail(new Error(`${field}: parsing in a worker thread failed: ${message.message}`));
            return;
        }
      });
      // The task closes its port once it answered (the answer arrives first, on the same
      // port); a port closed without one means the task ended without answering.
      port.on('close', () =>
        fail(new Error(`${field}: the parse thread ended before it answered`)),
      );
      // Rejects when the thread died (e.g. out of memory) or could not load the task.
      ready.pool.run(task, { transferList: [port2] }).then(
        () => undefined,
        (error: unknown) =>
          fail(
            new Error(
              `${field}: the parse thread failed: ${error instanceof Error ? error.message : String(error)}`,
              { cause: error },
            ),
          ),
      );

      void (async () => {
        try {
          for await (const chunk of input as AsyncIterable<Buffer>) {
            while (!settled && inFlight >= THREAD_IN_FLIGHT_BYTES) {
              await new Promise<void>((resume) => (wakePump = resume));
            }
            if (settled) return;
            // A copy of its own, transferred: posting a view would clone the whole buffer under it.
            const bytes = new Uint8Array(chunk);
            inFlight += bytes.byteLength;
            port.postMessage({ kind: 'bytes', bytes } satisfies TToParseThread, [bytes.buffer]);
          }
          if (!settled) port.postMessage({ kind: 'end' } satisfies TToParseThread);
        } catch (error) {
          fail(
            new CsvExportError(field, 'read_failed', 'the file could not be read', {
              cause: error,
            }),
          );
        }
      })();
    });

    return result.finally(() => {
      if (!input.destroyed) input.destroy();
      // Stops the thread's parse when it has not answered (its stream ends with an error); a
      // task still queued reads it first and ends at once. Messages posted before close()
      // are still delivered.
      if (!answered) port.postMessage({ kind: 'stop' } satisfies TToParseThread);
      port.close();
    });
  }

  /** Stops the threads (a parse still running fails) and removes a bundled script. */
  async close(): Promise<void> {
    this.closed = true;
    const ready = await this.pool;
    this.pool = null;
    if (!ready) return;
    await ready.pool.destroy();
    await ready.remove();
  }
}
