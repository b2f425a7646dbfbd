import { z } from 'zod';

/**
 * An error of a call to App Store Connect, in words a user can act on. `status` is the HTTP
 * status (0: no answer), `retryable` whether trying later may help. Never carries a token or
 * a key.
 */
export class AscApiError extends Error {
  override readonly name = 'AscApiError';
  constructor(
    message: string,
    readonly status: number,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** Apple's JSON:API error answer. */
const ZErrors = z.object({
  errors: z
    .array(
      z.object({
        status: z.string().optional(),
        code: z.string().optional(),
        detail: z.string().optional(),
        title: z.string().optional(),
      }),
    )
    .optional(),
});

/** Apple's error text of an answer, one line, at most 300 characters (never a token). */
export function appleDetail(text: string): string {
  try {
    const first = ZErrors.parse(JSON.parse(text)).errors?.[0];
    const detail = first ? [first.title, first.detail].filter(Boolean).join(': ') : '';
    return detail.replace(/\s+/g, ' ').slice(0, 300);
  } catch {
    return '';
  }
}

/** The error of a non-2xx answer, in words (what it means and what to do). */
export function errorFor(
  status: number,
  method: string,
  path: string,
  detail: string,
): AscApiError {
  const apple = detail ? ` App Store Connect said: "${detail}".` : '';
  switch (status) {
    case 401:
      return new AscApiError(
        `App Store Connect did not accept the API key (401): check the issuer id and key id, and that the key was not revoked.${apple}`,
        401,
        false,
      );
    case 403:
      return new AscApiError(
        method === 'POST' && path.includes('analyticsReportRequests')
          ? `The API key may not request analytics reports for this app (403): the first report request of an app needs a key with the Admin role; later imports work with Sales and Reports or Finance.${apple}`
          : `The API key's role does not allow this (403): use a key with the Admin, Sales and Reports or Finance role.${apple}`,
        403,
        false,
      );
    case 404:
      return new AscApiError(
        `App Store Connect has no such resource (404: ${path}).${apple}`,
        404,
        false,
      );
    case 409:
      return new AscApiError(
        `App Store Connect refused the request as a conflict (409).${apple}`,
        409,
        false,
      );
    case 429:
      return new AscApiError(
        'App Store Connect rate limit reached (429): the key used up its requests for this hour; the import tries again later.',
        429,
        true,
      );
    default:
      return new AscApiError(
        `App Store Connect answered ${status} to ${method} ${path}.${apple}`,
        status,
        status >= 500,
      );
  }
}
