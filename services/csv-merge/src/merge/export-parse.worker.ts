import { Readable } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import type { TUploadField } from '@aso/contracts';
import { CsvExportError, type TCsvExportErrorReason } from './csv-export.error';
import { parseExport } from './export.parser';
import type { TParsedExportData } from './export-result';

/**
 * One parse task of the pool (see `ExportParsePool`): the file's field and limits, and the
 * port its bytes arrive on and its answer leaves by (transferred with the task).
 */
export interface TParseTask {
  port: MessagePort;
  field: TUploadField;
  maxRows?: number;
  maxColumns?: number;
  pauseEveryMs?: number;
}

/**
 * Messages to a parse task: the upload's bytes in order, then its end; or `stop` when the merge
 * no longer wants the answer (a message rather than closing the port: a port closed before the
 * task started, while it waited in the pool's queue, never tells the task so).
 */
export type TToParseThread =
  { kind: 'bytes'; bytes: Uint8Array } | { kind: 'end' } | { kind: 'stop' };

/**
 * Messages from a parse task: bytes taken by its parser (flow control), then one answer:
 * the parsed export (its arrays transferred), a refusal (a `CsvExportError`) or a failure.
 */
export type TFromParseThread =
  | { kind: 'consumed'; bytes: number }
  | { kind: 'parsed'; data: TParsedExportData }
  | { kind: 'refused'; reason: TCsvExportErrorReason; detail: string }
  | { kind: 'failed'; message: string };

/**
 * The thread's side of `ExportParsePool.parse`, run by the pool for each task: reads the bytes
 * posted to `task.port` as a stream, parses them with `parseExport` and posts the result (or
 * the refusal) back on the same port, then closes it. A `stop` message (the merge stopped: its
 * budget, its client gone, a failure of the other file) destroys the stream, so the parse
 * stops at its next read and the thread is free for the next task.
 * Resolves once the answer is posted; never rejects (a failure is an answer too).
 */
export async function serveExportParse(task: TParseTask): Promise<void> {
  const { port, field, maxRows, maxColumns, pauseEveryMs } = task;
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
    if (message.kind === 'stop') {
      input.destroy(new Error('the merge stopped reading this file'));
      return;
    }
    if (message.kind === 'bytes') {
      const { buffer, byteOffset, byteLength } = message.bytes;
      queue.push(Buffer.from(buffer, byteOffset, byteLength));
    } else ended = true;
    flush();
  });

  try {
    const parsed = await parseExport(input, field, { maxRows, maxColumns, pauseEveryMs });
    const { data, buffers } = parsed.toData();
    port.postMessage({ kind: 'parsed', data } satisfies TFromParseThread, buffers);
  } catch (error) {
    port.postMessage(
      (error instanceof CsvExportError
        ? { kind: 'refused', reason: error.reason, detail: error.detail }
        : {
            kind: 'failed',
            message: error instanceof Error ? error.message : String(error),
          }) satisfies TFromParseThread,
    );
  } finally {
    if (!input.destroyed) input.destroy();
    port.close();
  }
}
