import { z } from 'zod';

/**
 * Machine-readable error codes of the API (docs/product.md#error-answers). Each maps to one HTTP
 * status in `ERROR_STATUS`.
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

/** HTTP status per error code (docs/product.md#error-answers). */
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

/**
 * Why a call was refused, when the client words or handles it differently:
 * - `NOT_YOURS` (404): the audit exists but belongs to another account (its private address was
 *   passed on; a share link opens it);
 * - `INVITE_CODE` (401, sign-in): the code is an invite (access) code, which signs up, not in;
 * - `PERSONAL_CODE` (401, sign-up): the code is the account's personal sign-in code: sign in;
 * - `NO_PERSONAL_CODE` (403, sign-in): the account was made before personal sign-in codes and
 *   has none yet; an administrator issues one.
 */
export const ZErrorReason = z.enum([
  'NOT_YOURS',
  'INVITE_CODE',
  'PERSONAL_CODE',
  'NO_PERSONAL_CODE',
]);
export type TErrorReason = z.infer<typeof ZErrorReason>;

/** Body of every non-2xx answer: `{ message, code }` (docs/product.md#error-answers). */
export const ZErrorBody = z.object({
  message: z.string(),
  code: ZErrorCode,
  /** Seconds until a rate-limited call may be retried (429 only). */
  retryAfter: z.number().int().nonnegative().optional(),
  /** See {@link ZErrorReason}. */
  reason: ZErrorReason.optional(),
  /**
   * The request field the message is about, by its API name ('conversionCSV',
   * 'competitorUrl2', 'email'), for clients that attach the message to a control; the message
   * itself names it for people ('Conversion export: ...'), see {@link humanFieldMessage}.
   */
  field: z.string().optional(),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

/**
 * What people call the request fields of the API (bodies, multipart fields, query strings), as
 * messages name them. A field not listed is named by its words ('expiresInDays' -> 'Expires in
 * days').
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  appStoreUrl: 'App Store link',
  competitorUrl1: 'Competitor 1 link',
  competitorUrl2: 'Competitor 2 link',
  competitorUrl3: 'Competitor 3 link',
  keywords: 'Keywords',
  terms: 'Keywords',
  email: 'Email',
  accessCode: 'Access code',
  conversionCSV: 'Conversion export',
  redownloadsCSV: 'Redownloads export',
  feedback: 'Feedback',
  auditId: 'Audit',
  appId: 'App ID',
  url: 'URL',
  storefront: 'Storefront',
  name: 'Name',
  code: 'Code',
  start: 'Start',
  end: 'End',
  issuerId: 'Issuer ID',
  keyId: 'Key ID',
};

/** The people's name of request field `field` (see {@link FIELD_LABELS}). */
export function fieldLabel(field: string): string {
  const listed = FIELD_LABELS[field];
  if (listed) return listed;
  const words = field
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// 'conversionCSV: ...', 'competitors.0.url: ...', 'conversionCSV was sent ...': an API field
// name (see isFieldName), optionally with a path, then ': ' or ' '.
const FIELD_PREFIX = /^([a-z][A-Za-z0-9]*)((?:\.[A-Za-z0-9_]+)*)(: | )/;

function isFieldName(name: string): boolean {
  // camelCase of two lower-case letters or more first: 'maxUses', never 'iPhone' or 'iOS'.
  return name in FIELD_LABELS || /^[a-z]{2,}[A-Z0-9]/.test(name);
}

/**
 * A refusal's message as people read it, and the field it is about: a message that starts
 * with an API field name gets the field's name for people instead (docs/product.md#error-answers):
 * 'conversionCSV: no header row ...' -> 'Conversion export: no header row ...';
 * 'accessCode is required' -> 'Access code is required'; 'competitorUrl2: "xx" is not an App
 * Store storefront' -> 'Competitor 2 link: ...'. Messages of several issues joined by '; ' are
 * read one by one, a nested field named with its path ('configJson.totalRows: ...' -> 'Config
 * json total rows: ...'); `field` is the first field named, as the API names it.
 * Other messages are returned as they are.
 */
export function humanFieldMessage(message: string): { message: string; field?: string } {
  let first: string | undefined;
  const parts = message.split(/; (?=[a-z][A-Za-z0-9.]*(?:: | ))/).map((part) => {
    const match = FIELD_PREFIX.exec(part);
    if (!match) return part;
    const [whole, name, path = '', separator] = match;
    if (!isFieldName(name!)) return part;
    first ??= `${name}${path}`;
    const rest = part.slice(whole.length);
    // A nested field keeps its path in words: 'configJson.totalRows' -> 'Config json total rows'.
    const inner = path
      .split('.')
      .filter((segment) => segment !== '')
      .map((segment) =>
        /^\d+$/.test(segment) ? `#${Number(segment) + 1}` : fieldLabel(segment).toLowerCase(),
      );
    const label = [fieldLabel(name!), ...inner].join(' ');
    if (separator === ' ') return `${label} ${rest}`;
    // 'accessCode: accessCode is required' -> 'Access code is required'.
    const repeated = rest.startsWith(`${name} `) ? rest.slice(name!.length + 1) : null;
    return repeated === null ? `${label}: ${rest}` : `${label} ${repeated}`;
  });
  return first === undefined ? { message } : { message: parts.join('; '), field: first };
}
