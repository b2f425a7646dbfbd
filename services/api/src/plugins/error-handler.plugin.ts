import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { humanFieldMessage, type TErrorBody, type TErrorCode } from '@aso/contracts';
import { isDatabaseUnavailableError } from '@aso/db';
import { AppError } from '../lib/app-error';

const byStatus: Record<number, TErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'BAD_REQUEST',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** `body.email: Invalid email` -> `email: Invalid email`, joined by '; '. */
function describeValidation(
  items: { instancePath?: string; message?: string; params?: unknown }[],
  context?: string,
): string {
  return items
    .map((v) => {
      const path = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
      const where = path || context || '';
      return where ? `${where}: ${v.message ?? 'is invalid'}` : (v.message ?? 'invalid input');
    })
    .join('; ');
}

/** What a request that needs PostgreSQL answers while it is unreachable (503). */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'The database is unavailable right now. Please try again in a few seconds.';

/**
 * The one error handler (docs/product.md#error-answers): every error answers JSON `{ message, code
 * }`; validation errors name the field, as people call it in `message` (`humanFieldMessage` of
 * @aso/contracts) and by its API name in `field`; an unreachable database (refused, dropped, restarting, or
 * no connection within the pool's timeout) answers 503 `SERVICE_UNAVAILABLE`; other server errors
 * are logged with their stack and answer a generic message, never the internals.
 */
export const errorHandlerPlugin = fp(async (app) => {
  app.setNotFoundHandler((req, reply) => {
    const body: TErrorBody = {
      message: `Route ${req.method} ${req.url} not found`,
      code: 'NOT_FOUND',
    };
    return reply.code(404).send(body);
  });

  app.setErrorHandler((err: FastifyError | AppError | Error, req, reply) => {
    let status = 500;
    let body: TErrorBody = { message: 'Internal server error', code: 'INTERNAL' };

    if (err instanceof AppError) {
      status = err.statusCode;
      body = { message: err.message, code: err.code };
      if (err.extra.reason) body.reason = err.extra.reason;
      if (err.extra.retryAfter !== undefined) {
        body.retryAfter = err.extra.retryAfter;
        void reply.header('retry-after', String(err.extra.retryAfter));
      }
    } else if (hasZodFastifySchemaValidationErrors(err)) {
      status = 400;
      body = {
        message: describeValidation(err.validation, (err as FastifyError).validationContext),
        code: 'BAD_REQUEST',
      };
    } else if (err instanceof ZodError) {
      status = 400;
      body = {
        message: err.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '),
        code: 'BAD_REQUEST',
      };
    } else if (isDatabaseUnavailableError(err)) {
      status = 503;
      body = { message: DATABASE_UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' };
      void reply.header('retry-after', '5');
    } else if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause.issues }, 'answer does not match its contract');
    } else {
      const fe = err as FastifyError;
      const code = fe.statusCode ? byStatus[fe.statusCode] : undefined;
      if (fe.statusCode && fe.statusCode < 500 && code) {
        status = fe.statusCode;
        body = { message: fe.message, code };
      } else if (fe.statusCode === 503 || fe.statusCode === 504) {
        status = fe.statusCode;
        body = { message: fe.message, code: byStatus[fe.statusCode] ?? 'SERVICE_UNAVAILABLE' };
      }
    }

    // People read the message: a field it starts with is named as they call it ('Conversion
    // export: ...'), and the API name goes in `field` for clients (docs/product.md#error-answers).
    if (status < 500) {
      const human = humanFieldMessage(body.message);
      body.message = human.message;
      if (human.field !== undefined) body.field = human.field;
    }

    if (status === 503) req.log.warn({ err: err.message }, 'request refused: a dependency is down');
    else if (status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code: body.code, message: body.message }, 'request refused');
    return reply.code(status).type('application/json').send(body);
  });
});
