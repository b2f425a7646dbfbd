import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { TUploadField } from '@aso/contracts';
import { CsvExportError, type TCsvExportErrorReason } from './csv-export.error';
import { parseExport, type TParsedExportData } from './export.parser';

/** What a parse thread is started with (`workerData`). */
export interface TParseThreadInit {
  field: TUploadField;
  maxRows?: number;
  maxColumns?: number;
  pauseEveryMs?: number;
}

/** Messages to a parse thread: the upload's bytes in order, then its end. */
export type TToParseThread = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'end' };

/**
 * Messages from a parse thread: bytes taken by its parser (flow control), then one answer:
 * the parsed export (its arrays transferred), a refusal (a `CsvExportError`) or a failure.
 */
export type TFromParseThread =
  | { kind: 'consumed'; bytes: number }
  | { kind: 'parsed'; data: TParsedExportData }
  | { kind: 'refused'; reason: TCsvExportErrorReason; detail: string }
  | { kind: 'failed'; message: string };

/**
 * The thread's side of {@link parseExportInThread}: reads the bytes posted to it as a stream,
 * parses them with `parseExport` and posts the result (or the refusal) back. The thread's
 * script (bundled by `parseExportInThread`) calls it; never call it elsewhere: it answers on
 * whatever `parentPort` the caller's thread has.
 */
export function serveExportParse(): void {
  const port = parentPort;
  if (!port) return;
  const init = workerData as TParseThreadInit;
  const queue: Buffer[] = [];
  let ended = false;
  let wanted = false;
  const flush = () => {
    while (wanted && queue.length > 0) {
      const chunk = queue.shift()!;
      port.postMessage({ kind: 'consumed', bytes: chunk.length } satisfies TFromParseThread);
      wanted = input.push(chunk);
    }
    if (wanted && ended && queue.length === 0) {
      wanted = false;
      input.push(null);
    }
  };
  const input = new Readable({
    highWaterMark: 256 * 1024,
    read() {
      wanted = true;
      flush();
    },
  });
  port.on('message', (message: TToParseThread) => {
    if (message.kind === 'bytes') {
      const { buffer, byteOffset, byteLength } = message.bytes;
      queue.push(Buffer.from(buffer, byteOffset, byteLength));
    } else ended = true;
    flush();
  });

  const { maxRows, maxColumns, pauseEveryMs } = init;
  parseExport(input, init.field, { maxRows, maxColumns, pauseEveryMs }).then(
    (parsed) => {
      const { data, buffers } = parsed.toData();
      // The thread stays until the caller, having the answer, terminates it.
      port.postMessage({ kind: 'parsed', data } satisfies TFromParseThread, buffers);
    },
    (error: unknown) => {
      port.postMessage(
        (error instanceof CsvExportError
          ? { kind: 'refused', reason: error.reason, detail: error.detail }
          : {
              kind: 'failed',
              message: error instanceof Error ? error.message : String(error),
            }) satisfies TFromParseThread,
      );
    },
  );
}
