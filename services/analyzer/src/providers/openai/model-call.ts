import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import type { UsageMeter } from '../provider.types';
import {
  jsonSchemaOf,
  MODEL_SCHEMAS,
  strictResponseFormat,
  type TSchemaName,
} from './openai.schemas';

/** How the model is asked for JSON: strict Structured Outputs, or JSON mode validated by zod. */
export type TResponseFormatMode = 'json_schema' | 'json_object';

/** Why a model call gave no usable answer. */
export type TModelFailureKind =
  | 'refused'
  | 'truncated'
  | 'content_filter'
  | 'timeout'
  | 'aborted'
  | 'rate_limited'
  | 'server_error'
  | 'rejected'
  | 'unparseable'
  | 'failed';

const FAILURE_TEXT: Record<TModelFailureKind, string> = {
  refused: 'the model refused to answer',
  truncated: 'the answer was cut off at the output token limit',
  content_filter: "the answer was withheld by the provider's content filter",
  timeout: 'the model did not answer in time',
  aborted: 'the model call was cancelled',
  rate_limited: 'the AI provider is rate-limiting requests',
  server_error: 'the AI provider had a server error',
  rejected: 'the AI provider refused the request',
  unparseable: 'the answer could not be read, twice',
  failed: 'the model call failed',
};

/**
 * A model call that gave no usable answer (after the client's retries). `reason` is
 * user-facing ("the model refused to answer"); `detail` is for logs (never holds secrets).
 */
export class ModelCallError extends Error {
  readonly reason: string;
  constructor(
    readonly kind: TModelFailureKind,
    readonly schema: TSchemaName,
    readonly detail = '',
  ) {
    super(`${schema}: ${FAILURE_TEXT[kind]}${detail ? ` (${detail})` : ''}`);
    this.name = 'ModelCallError';
    this.reason = FAILURE_TEXT[kind];
  }
}

/** What {@link callModel} needs besides the messages. */
export interface TModelCallOptions {
  client: OpenAI;
  model: string;
  mode: TResponseFormatMode;
  /** Upper bound of output tokens per call (`max_completion_tokens`); null leaves the server's. */
  maxOutputTokens: number | null;
  signal: AbortSignal;
  usage: UsageMeter;
}

/** The messages with, in JSON mode, the schema the answer must follow (JSON mode needs the word JSON). */
function withFormatInstructions(
  name: TSchemaName,
  mode: TResponseFormatMode,
  messages: ChatCompletionMessageParam[],
): ChatCompletionMessageParam[] {
  if (mode === 'json_schema') return messages;
  return [
    ...messages,
    {
      role: 'system',
      content: `Answer with one JSON object, and nothing else, that matches this JSON Schema: ${JSON.stringify(jsonSchemaOf(name))}`,
    },
  ];
}

/** Maps an error of the openai client to a {@link ModelCallError}. */
async function classify(err: unknown, name: TSchemaName): Promise<ModelCallError> {
  const { APIConnectionTimeoutError, APIUserAbortError, APIError } = await import('openai');
  if (err instanceof APIUserAbortError) return new ModelCallError('aborted', name);
  if (err instanceof APIConnectionTimeoutError) return new ModelCallError('timeout', name);
  if (err instanceof APIError) {
    const detail = `HTTP ${err.status ?? 'no status'}: ${String(err.message).slice(0, 200)}`;
    if (err.status === 429) return new ModelCallError('rate_limited', name, detail);
    if (err.status !== undefined && err.status >= 500)
      return new ModelCallError('server_error', name, detail);
    if (err.status !== undefined && err.status >= 400)
      return new ModelCallError('rejected', name, detail);
    return new ModelCallError('failed', name, detail);
  }
  if (err instanceof Error && err.name === 'AbortError') return new ModelCallError('aborted', name);
  return new ModelCallError(
    'failed',
    name,
    err instanceof Error ? err.message.slice(0, 200) : String(err),
  );
}

/**
 * One chat completion asking for the JSON of schema `name`, validated by its zod schema. The
 * openai client retries 408/409/429/5xx answers and dropped connections itself (its
 * `maxRetries`, honouring `retry-after`); an answer that is not JSON or not of the schema is
 * asked for once more. Returns the parsed value. Throws {@link ModelCallError} for a refusal
 * (`message.refusal`), `finish_reason` 'length' or 'content_filter', a timeout, an abort, a 429
 * or 5xx left after the retries, a refused request (e.g. HTTP 400 invalid_request_error), and
 * an answer unreadable twice. Every call's token usage is added to `opts.usage`.
 */
export async function callModel<N extends TSchemaName>(
  name: N,
  messages: ChatCompletionMessageParam[],
  opts: TModelCallOptions,
): Promise<z.infer<(typeof MODEL_SCHEMAS)[N]>> {
  const schema = MODEL_SCHEMAS[name] as unknown as z.ZodType<z.infer<(typeof MODEL_SCHEMAS)[N]>>;
  const response_format =
    opts.mode === 'json_schema' ? strictResponseFormat(name) : ({ type: 'json_object' } as const);
  const sent = withFormatInstructions(name, opts.mode, messages);
  let detail = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await opts.client.chat.completions.create(
        {
          model: opts.model,
          messages: sent,
          response_format,
          ...(opts.maxOutputTokens ? { max_completion_tokens: opts.maxOutputTokens } : {}),
        },
        { signal: opts.signal },
      );
    } catch (err) {
      throw await classify(err, name);
    }
    opts.usage.add(completion.usage);
    const choice = completion.choices[0];
    if (choice?.message?.refusal)
      throw new ModelCallError('refused', name, choice.message.refusal.slice(0, 200));
    if (choice?.finish_reason === 'length') throw new ModelCallError('truncated', name);
    if (choice?.finish_reason === 'content_filter')
      throw new ModelCallError('content_filter', name);
    const content = choice?.message?.content ?? '';
    let json: unknown;
    try {
      json = JSON.parse(content);
    } catch {
      detail = `not JSON: ${content.slice(0, 120) || '(empty)'}`;
      continue;
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    detail = parsed.error.issues
      .map((i) => `${i.path.join('.')}: ${i.message}`)
      .join('; ')
      .slice(0, 300);
  }
  throw new ModelCallError('unparseable', name, detail);
}
