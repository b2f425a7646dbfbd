/**
 * `callModel` and the test server's enforcement of the strict subset, through the real openai
 * client over loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI, { BadRequestError } from 'openai';
import { callModel, ModelCallError } from '../src/providers/openai/model-call';
import { UsageMeter } from '../src/providers/provider.types';
import { startOpenAiCompatibleServer, TEST_USAGE, VALID_ANSWERS } from './openai-compatible.server';

let llm: Awaited<ReturnType<typeof startOpenAiCompatibleServer>>;
let client: OpenAI;
beforeAll(async () => {
  llm = await startOpenAiCompatibleServer((req) =>
    req.schema === 'screenshot_review'
      ? { content: JSON.stringify(VALID_ANSWERS.screenshot_review!(req)), delayMs: 500 }
      : { content: '{}' },
  );
  client = new OpenAI({
    apiKey: 'sk-test-not-a-secret',
    baseURL: llm.baseURL,
    maxRetries: 0,
    timeout: 5_000,
  });
});
afterAll(async () => llm.close());

const messages = [
  { role: 'user' as const, content: JSON.stringify({ app: { name: 'Tune Box' } }) },
];

describe('callModel', () => {
  it('answers with the parsed value and counts the usage', async () => {
    const usage = new UsageMeter();
    const value = await callModel('screenshot_review', messages, {
      client,
      model: 'm',
      mode: 'json_schema',
      maxOutputTokens: 1000,
      signal: new AbortController().signal,
      usage,
    });
    expect(value.summary).toMatch(/^Model review of /);
    expect(value.toImprove).toEqual(['Lead with the main benefit', 'Shorten captions']);
    expect(usage.snapshot()).toEqual({
      promptTokens: TEST_USAGE.prompt_tokens,
      completionTokens: TEST_USAGE.completion_tokens,
      totalTokens: TEST_USAGE.total_tokens,
      calls: 1,
    });
  });

  it('an aborted call is a ModelCallError of kind "aborted"', async () => {
    const controller = new AbortController();
    const call = callModel('screenshot_review', messages, {
      client,
      model: 'm',
      mode: 'json_schema',
      maxOutputTokens: null,
      signal: controller.signal,
      usage: new UsageMeter(),
    });
    setTimeout(() => controller.abort(), 50);
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect((err as ModelCallError).kind).toBe('aborted');
  });
});

describe('the test server refuses what the API refuses', () => {
  it('a strict schema outside the subset: HTTP 400 invalid_request_error naming the keyword', async () => {
    const err = await client.chat.completions
      .create({
        model: 'm',
        messages,
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'screenshot_review',
            strict: true,
            schema: {
              type: 'object',
              properties: { summary: { type: 'string', minLength: 1 } },
              required: ['summary'],
              additionalProperties: false,
            },
          },
        },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).status).toBe(400);
    expect((err as BadRequestError).type).toBe('invalid_request_error');
    expect((err as BadRequestError).message).toContain(
      "Invalid schema for response_format 'screenshot_review': In context=('properties', 'summary'), 'minLength' is not permitted.",
    );
    expect(llm.refused.at(-1)?.schema).toBe('screenshot_review');
  });

  it('JSON mode without the word JSON in the messages', async () => {
    const err = await client.chat.completions
      .create({
        model: 'm',
        messages: [{ role: 'user', content: 'hello' }],
        response_format: { type: 'json_object' },
      })
      .catch((e: unknown) => e);
    expect((err as BadRequestError).status).toBe(400);
    expect((err as BadRequestError).message).toContain("must contain the word 'json'");
  });
});
