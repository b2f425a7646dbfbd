import { z } from 'zod';

/**
 * Machine-readable error codes of the API (DESIGN section 6). Each maps to one HTTP status
 * in `ERROR_STATUS`.
 */
export const ZErrorCode = z.enum([
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
  'GATEWAY_TIMEOUT',
]);
export type TErrorCode = z.infer<typeof ZErrorCode>;

/** HTTP status per error code (DESIGN section 6). */
export const ERROR_STATUS: Record<TErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

/** Body of every non-2xx answer: `{ message, code }` (DESIGN section 6). */
export const ZErrorBody = z.object({
  message: z.string(),
  code: ZErrorCode,
  /** Seconds until a rate-limited call may be retried (429 only). */
  retryAfter: z.number().int().nonnegative().optional(),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;
