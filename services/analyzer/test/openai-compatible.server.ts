import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received: the schema name asked for and the parsed body. */
export interface TRecordedRequest {
  schema: string;
  body: {
    model: string;
    messages: Array<{
      role: string;
      content: string | Array<{ type: string; text?: string; image_url?: { url: string } }>;
    }>;
    response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
  };
  authorization: string | undefined;
}

/** What the server answers to one chat completion: a status and the message content (or a raw body). */
export interface TAnswer {
  status?: number;
  headers?: Record<string, string>;
  content?: string;
  body?: unknown;
}

/**
 * A local OpenAI-compatible HTTP server for tests (DESIGN section 8: "the LLM a local
 * OpenAI-compatible server"): it serves `POST /v1/chat/completions` in the Chat Completions
 * wire format, records every request and answers with `respond(request, n)`, where `n` counts
 * the requests for that schema name (1 for the first). Its answers are CONSTRUCTED test data.
 */
export async function startOpenAiCompatibleServer(
  respond: (req: TRecordedRequest, n: number) => TAnswer,
) {
  const requests: TRecordedRequest[] = [];
  const counts = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TRecordedRequest['body'];
      const schema = body.response_format?.json_schema?.name ?? '(none)';
      const recorded: TRecordedRequest = { schema, body, authorization: req.headers.authorization };
      requests.push(recorded);
      const n = (counts.get(schema) ?? 0) + 1;
      counts.set(schema, n);
      const answer = respond(recorded, n);
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
                  finish_reason: 'stop',
                  message: { role: 'assistant', content: answer.content ?? '', refusal: null },
                },
              ],
              usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
            }
          : { error: { message: `status ${status}`, type: 'test', code: null } });
      res
        .writeHead(status, { 'content-type': 'application/json', ...answer.headers })
        .end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Constructed valid answers per schema name, as a model following the prompt would give. */
export const VALID_ANSWERS: Record<string, (req: TRecordedRequest) => unknown> = {
  screenshot_review: (req) => {
    const user = req.body.messages.find((m) => m.role === 'user');
    const part = Array.isArray(user?.content)
      ? user.content.find((p) => p.type === 'text')
      : undefined;
    const name = (JSON.parse(part?.text ?? '{}') as { app?: { name?: string } }).app?.name ?? 'app';
    return {
      summary: `Model review of ${name}: bold captions on a dark background.`,
      firstThree: 'The first three show playback, playlists and search.',
      toImprove: ['Lead with the main benefit', 'Shorten captions'],
    };
  },
  structured_analysis: () =>
    Object.fromEntries(
      [
        'title',
        'subtitle',
        'keywords',
        'icon',
        'video',
        'screenshots',
        'rating',
        'category',
        'inAppEvents',
      ].map((k) => [
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
    ],
  }),
};
