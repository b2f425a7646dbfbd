import type { TErrorBody } from '@aso/contracts';

/**
 * A non-2xx answer of the gateway, the one error type of every client of the API (the web app,
 * the CLI, the benchmarks). Browser-safe.
 *
 * - `message` is `'<status>: <body text>'`, or the status text when the body is empty
 *   (docs/product.md#error-catalogue: "the status code, a colon and a space, then the body text");
 * - `body` is the `{ message, code }` error body (`TErrorBody`) when the answer was JSON with a
 *   string `message`, else null;
 * - `serverMessage` is what to show a person: the body's `message`, else the trimmed body
 *   text, else the status text ('' when all are empty).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The parsed error body, when the answer was `{ message, code }` JSON. */
  readonly body: TErrorBody | null;
  /** The body's `message`, else the body text, else the status text. */
  readonly serverMessage: string;

  constructor(
    /** HTTP status code. */
    readonly status: number,
    /** The raw body text (may be empty). */
    readonly bodyText: string,
    /** The answer's status text (`Response.statusText`), used when the body is empty. */
    statusText = '',
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.body = parseErrorBody(bodyText);
    this.serverMessage = this.body?.message.trim() || bodyText.trim() || statusText;
  }
}

function parseErrorBody(text: string): TErrorBody | null {
  try {
    const data: unknown = JSON.parse(text);
    if (data && typeof data === 'object' && typeof (data as TErrorBody).message === 'string') {
      return data as TErrorBody;
    }
  } catch {
    // Not JSON: only the raw text is kept.
  }
  return null;
}
