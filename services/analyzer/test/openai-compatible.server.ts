import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECTION_KEYS } from '@aso/contracts';
import { strictSchemaViolation } from '../src/providers/openai/strict-schema';

/** One request the server received: the schema name asked for and the parsed body. */
export interface TRecordedRequest {
  schema: string;
  body: {
    model: string;
    messages: Array<{
      role: string;
      content: string | Array<{ type: string; text?: string; image_url?: { url: string } }>;
    }>;
    response_format?: {
      type: string;
      json_schema?: { name: string; strict?: boolean; schema: unknown };
    };
    max_completion_tokens?: number;
  };
  authorization: string | undefined;
}

/**
 * What the server answers to one chat completion: a status and the message content (or a raw
 * body), or one of the ways the API fails: a refusal (`message.refusal`), a `finish_reason`
 * other than 'stop', an answer after `delayMs`, or a connection dropped without an answer.
 */
export interface TAnswer {
  status?: number;
  headers?: Record<string, string>;
  content?: string;
  refusal?: string;
  finishReason?: 'stop' | 'length' | 'content_filter';
  delayMs?: number;
  dropConnection?: boolean;
  body?: unknown;
}

/** Tokens the server reports per answered call (CONSTRUCTED). */
export const TEST_USAGE = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 };

/** The API's error body for a refused request (HTTP 400, `invalid_request_error`). */
function invalidRequest(message: string, param: string) {
  return { error: { message, type: 'invalid_request_error', param, code: null } };
}

/** Why the API would refuse this request's `response_format`, or null. */
function formatViolation(
  body: TRecordedRequest['body'],
): { message: string; param: string } | null {
  const format = body.response_format;
  if (!format) return null;
  if (format.type === 'json_schema') {
    const js = format.json_schema;
    if (!js?.name)
      return {
        message: "Missing required parameter: 'response_format.json_schema.name'.",
        param: 'response_format.json_schema.name',
      };
    if (js.strict === true) {
      const violation = strictSchemaViolation(js.schema);
      if (violation)
        return {
          message: `Invalid schema for response_format '${js.name}': ${violation}`,
          param: 'response_format',
        };
    }
    return null;
  }
  if (format.type === 'json_object') {
    const text = JSON.stringify(body.messages).toLowerCase();
    return text.includes('json')
      ? null
      : {
          message:
            "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
          param: 'messages',
        };
  }
  return format.type === 'text'
    ? null
    : {
        message: `Invalid value: '${format.type}'. Supported values are: 'json_object', 'json_schema', and 'text'.`,
        param: 'response_format.type',
      };
}

/**
 * The schema name of a request: the json_schema name, or in JSON mode the schema its
 * instructions carry ("... matches this JSON Schema: {...}"), told by its property names.
 */
function schemaName(body: TRecordedRequest['body']): string {
  const named = body.response_format?.json_schema?.name;
  if (named) return named;
  for (const m of body.messages) {
    const text = typeof m.content === 'string' ? m.content : '';
    const at = text.indexOf('JSON Schema: ');
    if (at < 0) continue;
    const props = Object.keys(
      (JSON.parse(text.slice(at + 'JSON Schema: '.length)) as { properties?: object }).properties ??
        {},
    );
    if (props.includes('summary')) return 'screenshot_review';
    if (props.includes('recommendations')) return 'recommendations';
    if (props.includes('title')) return 'structured_analysis';
  }
  return '(none)';
}

/**
 * A local OpenAI-compatible HTTP server for tests (docs/product.md#testing-rules: "the LLM a local
 * OpenAI-compatible server") that enforces what the real API enforces: a `response_format`
 * sent with `strict: true` must fit the Structured Outputs subset (the same checker as the
 * provider's, `strictSchemaViolation`), and JSON mode needs the word JSON in the messages;
 * otherwise it answers HTTP 400 with an `invalid_request_error` as the API does. It serves
 * `POST /v1/chat/completions` in the Chat Completions wire format, records every request and
 * answers valid ones with `respond(request, n)`, where `n` counts the requests for that schema
 * name (1 for the first). Its answers are CONSTRUCTED test data.
 */
export async function startOpenAiCompatibleServer(
  respond: (req: TRecordedRequest, n: number) => TAnswer,
) {
  const requests: TRecordedRequest[] = [];
  const refused: Array<{ schema: string; message: string }> = [];
  const counts = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, { 'content-type': 'application/json', ...headers })
          .end(JSON.stringify(payload));
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        send(404, {
          error: { message: 'not found', type: 'invalid_request_error', param: null, code: null },
        });
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TRecordedRequest['body'];
      const schema = schemaName(body);
      const violation = formatViolation(body);
      if (violation) {
        refused.push({ schema, message: violation.message });
        send(400, invalidRequest(violation.message, violation.param));
        return;
      }
      const recorded: TRecordedRequest = { schema, body, authorization: req.headers.authorization };
      requests.push(recorded);
      const n = (counts.get(schema) ?? 0) + 1;
      counts.set(schema, n);
      const answer = respond(recorded, n);
      if (answer.dropConnection) {
        req.socket.destroy();
        return;
      }
      const status = answer.status ?? 200;
      const payload =
        answer.body ??
        (status === 200
          ? {
              id: `chatcmpl-test-${requests.length}`,
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model: body.model,
              choices: [
                {
                  index: 0,
                  finish_reason: answer.finishReason ?? 'stop',
                  logprobs: null,
                  message: answer.refusal
                    ? { role: 'assistant', content: null, refusal: answer.refusal }
                    : { role: 'assistant', content: answer.content ?? '', refusal: null },
                },
              ],
              usage: TEST_USAGE,
            }
          : {
              error: {
                message: `status ${status}`,
                type: status === 429 ? 'rate_limit_exceeded' : 'server_error',
                param: null,
                code: null,
              },
            });
      const timer = setTimeout(() => {
        if (!res.destroyed) send(status, payload, answer.headers);
      }, answer.delayMs ?? 0);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    /** Requests the server accepted. */
    requests,
    /** Requests refused with HTTP 400 (schema or JSON-mode violations). */
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The app name a `screenshot_review` request is about. */
function reviewedApp(req: TRecordedRequest): string {
  const user = req.body.messages.find((m) => m.role === 'user');
  const part = Array.isArray(user?.content)
    ? user.content.find((p) => p.type === 'text')
    : undefined;
  return (JSON.parse(part?.text ?? '{}') as { app?: { name?: string } }).app?.name ?? 'app';
}

/** Constructed valid answers per schema name, as a model following the prompt would give. */
export const VALID_ANSWERS: Record<string, (req: TRecordedRequest) => unknown> = {
  screenshot_review: (req) => ({
    summary: `Model review of ${reviewedApp(req)}: bold captions on a dark background.`,
    firstThree: 'The first three show playback, playlists and search.',
    toImprove: ['Lead with the main benefit', 'Shorten captions'],
  }),
  structured_analysis: () =>
    Object.fromEntries(
      SECTION_KEYS.map((k) => [
        k,
        {
          analysis: `Model analysis of ${k}.`,
          improvements: [`Model improvement for ${k}.`],
          // 25 characters: fits the 30-character title; the subtitle one (43) does not.
          suggestedRewrite:
            k === 'title'
              ? 'Spotify: Music & Podcasts'
              : k === 'subtitle'
                ? 'Songs, podcasts, audiobooks and much more!!'
                : null,
        },
      ]),
    ),
  recommendations: () => ({
    recommendations: [
      {
        section: 'screenshots',
        title: 'Caption the first three',
        action: 'Add benefit captions.',
        expectedEffect: 'Higher conversion.',
      },
      {
        section: 'inAppEvents',
        title: 'Run an event',
        action: 'Publish a challenge event.',
        expectedEffect: 'More search placements.',
      },
      // The icon is not judged by the rules: a recommendation on it is dropped.
      {
        section: 'icon',
        title: 'Redraw the icon',
        action: 'Use a bolder symbol.',
        expectedEffect: 'More taps.',
      },
    ],
  }),
};
