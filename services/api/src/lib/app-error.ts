import { ERROR_STATUS, type TErrorCode, type TErrorReason } from '@aso/contracts';

/**
 * The one error type of the gateway (STYLE: documenso's AppError). The error handler turns it into
 * `{ message, code }` with the status of `code` (docs/product.md#error-answers). `message` is shown
 * to users, so it must be safe and helpful.
 */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: TErrorCode,
    message: string,
    readonly extra: { retryAfter?: number; cause?: unknown; reason?: TErrorReason } = {},
  ) {
    super(message, { cause: extra.cause });
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[code];
  }
}

/** 400 naming what is wrong. */
export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
/** 401: no or dead session. */
export const unauthorized = (message = 'Please sign in') => new AppError('UNAUTHORIZED', message);
/** 403: signed in but not allowed. */
export const forbidden = (message = 'Not allowed') => new AppError('FORBIDDEN', message);
/** 404: missing, expired, or someone else's (never reveal which). */
export const notFound = (message = 'Not found', reason?: TErrorReason) =>
  new AppError('NOT_FOUND', message, reason ? { reason } : {});
