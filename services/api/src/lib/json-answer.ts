import type { FastifyReply } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** Content type of JSON answers (what Fastify sets for a serialized one). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The JSON a route's zod serializer would answer for `value` (`JSON.stringify` of the
 * schema's parse), rendered once so that a cached answer is sent without checking it again.
 *
 * @throws ResponseSerializationError (answered 500, as the serializer would) when `value`
 *   breaks `schema`.
 */
export function renderJson(
  schema: z.ZodType,
  value: unknown,
  route: { method: string; url: string },
): string {
  const checked = schema.safeParse(value);
  if (!checked.success)
    throw new ResponseSerializationError(route.method, route.url, { cause: checked.error });
  return JSON.stringify(checked.data);
}

/**
 * Sends JSON rendered ahead ({@link renderJson}) as it is: Fastify skips the route's
 * serializer for a string with a content type; the route's schema still documents the answer.
 */
export function sendJson(reply: unknown, json: string | Buffer): FastifyReply {
  return (reply as FastifyReply).type(JSON_TYPE).send(json);
}
