import type { z } from 'zod';
import {
  ZAnalyzeAnswer,
  ZAudit,
  ZChartData,
  ZClearCacheAnswer,
  ZGenerateCodeAnswer,
  ZKeywordList,
  ZKpiReport,
  ZRegisterAnswer,
  ZSessionAnswer,
  ZUploadResult,
  nextPageFromLink,
  type TAnalyzeRequest,
  type TAudit,
  type TChartData,
  type TClearCacheAnswer,
  type TGenerateCodeAnswer,
  type TKeywordList,
  type TKeywordTrackBody,
  type TKpiReport,
  type TRegisterAnswer,
  type TSessionAnswer,
  type TUploadField,
  type TUploadResult,
} from '@aso/contracts';
import { ApiError } from './api.error';

/** Default timeout of one call (ms). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** One file of an upload: the multipart file name and its bytes. */
export interface TUploadFile {
  filename: string;
  bytes: Uint8Array;
}

/** Options of one {@link ApiClient.call}. */
export interface TCallOptions {
  /** Default: POST when there is a body or a form, else GET. */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Session token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Admin access code, sent as `x-access-code` (docs/product.md#api-calls, admin calls). */
  adminCode?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data (uploads); takes the place of `body`. */
  form?: FormData;
  /** Timeout of this call (ms); default the client's. */
  timeoutMs?: number;
}

/**
 * One page of a list call (docs/product.md#lists-and-pages): the answer, and the path of the
 * next page from its `Link` header (null on the last page).
 */
export interface TPageAnswer<T> {
  data: T;
  next: string | null;
}

/**
 * The gateway's HTTP API for programs outside the browser (the `pnpm aso` CLI and the
 * benchmarks; the web app has its own client for the browser's session): JSON in and out,
 * every answer checked against its `@aso/contracts` schema, every call with a timeout.
 */
export class ApiClient {
  /**
   * @param baseUrl - the gateway's origin, e.g. `http://127.0.0.1:3000`.
   * @param defaultTimeoutMs - timeout of a call that names none (ms).
   */
  constructor(
    readonly baseUrl: string,
    readonly defaultTimeoutMs = DEFAULT_TIMEOUT_MS,
  ) {}

  /**
   * Calls `path` and parses the JSON answer (null for an empty body) with `schema`.
   *
   * @throws ApiError for a non-2xx answer; a ZodError when the answer breaks its contract;
   *   a DOMException named 'TimeoutError' after the timeout; a TypeError 'fetch failed' when
   *   the gateway cannot be reached.
   */
  async call<S extends z.ZodType>(
    path: string,
    schema: S,
    init: TCallOptions = {},
  ): Promise<z.infer<S>> {
    return (await this.request(path, schema, init)).data;
  }

  /**
   * Calls the list `path` (with its `?limit=&cursor=`, or the `next` of the previous page) and
   * parses the answer with `schema`; the next page's path comes from the `Link` header.
   *
   * @throws as {@link call}.
   */
  callPage<S extends z.ZodType>(
    path: string,
    schema: S,
    init: TCallOptions = {},
  ): Promise<TPageAnswer<z.infer<S>>> {
    return this.request(path, schema, init);
  }

  private async request<S extends z.ZodType>(
    path: string,
    schema: S,
    init: TCallOptions,
  ): Promise<TPageAnswer<z.infer<S>>> {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.adminCode) headers['x-access-code'] = init.adminCode;
    if (init.body !== undefined && !init.form) headers['content-type'] = 'application/json';
    const res = await fetch(new URL(path, this.baseUrl), {
      method: init.method ?? (init.body !== undefined || init.form ? 'POST' : 'GET'),
      headers,
      body: init.form ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
      signal: AbortSignal.timeout(init.timeoutMs ?? this.defaultTimeoutMs),
    });
    const text = await res.text();
    if (!res.ok) throw new ApiError(res.status, text, res.statusText);
    return {
      data: schema.parse(text ? JSON.parse(text) : null),
      next: nextPageFromLink(res.headers.get('link')),
    };
  }

  /** `POST /api/login`: the session of an existing user, with their personal sign-in code. */
  login(email: string, signInCode: string): Promise<TSessionAnswer> {
    return this.call('/api/login', ZSessionAnswer, { body: { email, accessCode: signInCode } });
  }

  /**
   * `POST /api/register`: a new user holding `accessCode`, its session and its personal
   * sign-in code (given this once; `login` takes it).
   */
  register(email: string, accessCode: string): Promise<TRegisterAnswer> {
    return this.call('/api/register', ZRegisterAnswer, { body: { email, accessCode } });
  }

  /** `POST /api/analyze`: starts an audit; answers its id. */
  analyze(token: string, body: TAnalyzeRequest): Promise<{ id: string }> {
    return this.call('/api/analyze', ZAnalyzeAnswer, { token, body });
  }

  /** `GET /api/audit/{id}`. */
  audit(token: string, id: string): Promise<TAudit> {
    return this.call(`/api/audit/${encodeURIComponent(id)}`, ZAudit, { token });
  }

  /**
   * `POST /api/keywords`: tracks `body.terms` for the app of `body.appStoreUrl` in its
   * storefront (201); answers every tracked term of that app and storefront.
   */
  trackKeywords(token: string, body: TKeywordTrackBody): Promise<TKeywordList> {
    return this.call('/api/keywords', ZKeywordList, { token, body });
  }

  /** `GET /api/keywords?appId=&storefront=`: the tracked terms with ranks and estimates. */
  keywords(token: string, appId: string, storefront: string): Promise<TKeywordList> {
    const query = new URLSearchParams({ appId, storefront }).toString();
    return this.call(`/api/keywords?${query}`, ZKeywordList, { token });
  }

  /** `POST /api/admin/generate-code`: a new access code with `maxUses` uses. */
  generateCode(adminCode: string, maxUses: number): Promise<TGenerateCodeAnswer> {
    return this.call('/api/admin/generate-code', ZGenerateCodeAnswer, {
      adminCode,
      body: { maxUses },
    });
  }

  /** `DELETE /api/admin/cache/app/{appId}`: drops the app's cached snapshots. */
  clearAppCache(adminCode: string, appId: string): Promise<TClearCacheAnswer> {
    return this.call(`/api/admin/cache/app/${encodeURIComponent(appId)}`, ZClearCacheAnswer, {
      adminCode,
      method: 'DELETE',
    });
  }

  /**
   * `POST /api/uploads` (multipart, one file per field): the merge answer. The gateway
   * answers once the merge is stored, so the default timeout is 5 minutes.
   */
  upload(
    token: string,
    files: Partial<Record<TUploadField, TUploadFile>>,
    timeoutMs = 300_000,
  ): Promise<TUploadResult> {
    const form = new FormData();
    for (const [field, file] of Object.entries(files)) {
      form.append(field, new Blob([file.bytes], { type: 'text/csv' }), file.filename);
    }
    return this.call('/api/uploads', ZUploadResult, { token, form, timeoutMs });
  }

  /** `GET /api/chart-data/{downloadId}`: the merged rows. */
  chartData(token: string, downloadId: string): Promise<TChartData> {
    return this.call(`/api/chart-data/${encodeURIComponent(downloadId)}`, ZChartData, { token });
  }

  /** `GET /api/reports/{downloadId}?start&end` (days `YYYY-MM-DD`, inclusive; default range without). */
  report(
    token: string,
    downloadId: string,
    range?: { start: string; end: string },
  ): Promise<TKpiReport> {
    const query = range ? `?${new URLSearchParams(range).toString()}` : '';
    return this.call(`/api/reports/${encodeURIComponent(downloadId)}${query}`, ZKpiReport, {
      token,
    });
  }
}
