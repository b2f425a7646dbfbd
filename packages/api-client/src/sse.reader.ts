import { EventSourceParserStream } from 'eventsource-parser/stream';
import { ApiError } from './api.error';

/** One Server-Sent Events message: `id`, `event` (default 'message') and raw `data`. */
export interface TSseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

/** Options of {@link readSse}. */
export interface TReadSseOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Called for every comment line (e.g. heartbeats). */
  onComment?: (comment: string) => void;
}

/**
 * Opens `url` with fetch (so headers such as the bearer token and `Last-Event-ID` can be sent,
 * docs/product.md#access-and-sessions) and yields its Server-Sent Events as they arrive, parsed by
 * `eventsource-parser`. Ends when the server closes the stream; throws {@link ApiError} for a
 * non-2xx answer ('<status>: <message>', docs/product.md#error-catalogue) and rejects on `signal`.
 */
export async function* readSse(
  url: string,
  opts: TReadSseOptions = {},
): AsyncGenerator<TSseMessage> {
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...opts.headers },
    signal: opts.signal,
  });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  if (!res.body) return;
  const events = res.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream({ onComment: opts.onComment }));
  const reader = events.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield { id: value.id, event: value.event ?? 'message', data: value.data };
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
