import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TUploadField } from '@aso/contracts';
import { CsvExportError } from './csv-export.error';
import { parseExport, ParsedExport } from './export.parser';
import type { TFromParseThread, TParseThreadInit, TToParseThread } from './export-parse.worker';

/**
 * Bytes of an upload handed to the thread and not yet taken by its parser: the most held in
 * messages and queues at once (the worker stays under 400 MB RSS).
 */
export const THREAD_IN_FLIGHT_BYTES = 2 * 1024 * 1024;

/** Young generation of a parse thread's heap (MB; V8's default here is 3 x 16). */
export const PARSE_THREAD_YOUNG_GENERATION_MB = 12;

/** The parse thread's code: a built file, or a CommonJS script to evaluate. */
export type TParseThreadScript = URL | string;

let threadScript: Promise<TParseThreadScript> | null = null;

/**
 * The parse thread's code, once per process. Built (`pnpm build`), it is
 * `dist/merge/export-parse.thread-entry.js` beside this module's bundle. From the sources
 * (tests, `pnpm dev`), `export-parse.thread-entry.ts` and what it imports are bundled into one
 * CommonJS script by esbuild, a development dependency (about 0.1 s): a thread started from
 * it runs in about 60 ms, where one loading the TypeScript sources through the tsx loader took
 * about 0.5 s of CPU to start, as much as it saved on 2 x 5 MB files.
 */
function parseThreadScript(): Promise<TParseThreadScript> {
  if (!import.meta.url.endsWith('.ts')) {
    return Promise.resolve(new URL('./merge/export-parse.thread-entry.js', import.meta.url));
  }
  threadScript ??= import('esbuild')
    .then(({ build }) =>
      build({
        entryPoints: [fileURLToPath(new URL('./export-parse.thread-entry.ts', import.meta.url))],
        conditions: ['@aso/source'],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        write: false,
        logLevel: 'silent',
      }),
    )
    .then(
      (result) => result.outputFiles[0]!.text,
      (error: unknown) => {
        threadScript = null;
        throw error;
      },
    );
  return threadScript;
}

/**
 * Parses one export in a worker thread of its own (the two files of a merge are
 * parsed at the same time, on two cores), started from {@link parseThreadScript}. The bytes of
 * `input` are copied to the thread in the pieces `input` yields, at most
 * {@link THREAD_IN_FLIGHT_BYTES} ahead of its parser; the thread runs `parseExport` (same
 * rules, same errors) and hands the parsed rows back as transferred typed arrays, so nothing
 * is copied on the way back. The thread is terminated once it answered or failed; `input` is
 * read only here and destroyed at the end.
 *
 * When the thread cannot be built or started, the file is parsed by `parseExport` on the
 * caller's thread instead (same result, no parallelism).
 *
 * @param options.maxRows / options.maxColumns / options.pauseEveryMs - as `parseExport`'s (pauses in the thread
 *   let it take the next bytes; the caller's event loop is never held).
 * @param loadScript - the thread's code (default: {@link parseThreadScript}; tests pass one
 *   that fails).
 * @throws CsvExportError as `parseExport` does; 'read_failed' when `input` fails.
 * @throws Error when the thread dies before it answered (e.g. out of memory), naming the field.
 */
export async function parseExportInThread(
  input: Readable,
  field: TUploadField,
  options: { maxRows?: number; maxColumns?: number; pauseEveryMs?: number } = {},
  loadScript: () => Promise<TParseThreadScript> = parseThreadScript,
): Promise<ParsedExport> {
  const init: TParseThreadInit = { field, ...options };
  let worker: Worker;
  try {
    const script = await loadScript();
    worker = new Worker(script, {
      eval: typeof script === 'string',
      workerData: init,
      // Parsing makes short-lived garbage only; a small young generation keeps the thread's
      // share of the worker's RSS small (under 400 MB with both files in memory).
      resourceLimits: { maxYoungGenerationSizeMb: PARSE_THREAD_YOUNG_GENERATION_MB },
    });
  } catch {
    // No thread (its code cannot be built or found, threads refused): the same parse here, on
    // this thread's event loop; slower, never wrong. `input` was not read yet.
    return parseExport(input, field, options);
  }
  let settled = false;
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

    worker.on('message', (message: TFromParseThread) => {
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
    worker.on('error', (error) =>
      fail(new Error(`${field}: the parse thread failed: ${error.message}`, { cause: error })),
    );
    worker.on('exit', (code) =>
      fail(new Error(`${field}: the parse thread exited (code ${code}) before it answered`)),
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
          worker.postMessage({ kind: 'bytes', bytes } satisfies TToParseThread, [bytes.buffer]);
        }
        if (!settled) worker.postMessage({ kind: 'end' } satisfies TToParseThread);
      } catch (error) {
        fail(
          new CsvExportError(field, 'read_failed', 'the file could not be read', { cause: error }),
        );
      }
    })();
  });

  return result.finally(() => {
    if (!input.destroyed) input.destroy();
    void worker.terminate();
  });
}
