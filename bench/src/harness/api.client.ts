import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  ZAnalyzeAnswer,
  ZAudit,
  ZChartData,
  ZClearCacheAnswer,
  ZGenerateCodeAnswer,
  ZKpiReport,
  ZSessionAnswer,
  ZUploadResult,
  type TAnalyzeRequest,
  type TAudit,
  type TChartData,
  type TClearCacheAnswer,
  type TKpiReport,
  type TUploadField,
  type TUploadResult,
} from '@aso/contracts';

/** A non-2xx answer, shown as the spec's clients show it: '<status>: <message>' (spec section 8). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(`${status}: ${message}`);
    this.name = 'ApiError';
  }
}

/** A signed-in benchmark user: its email and bearer token. */
export interface TBenchUser {
  email: string;
  token: string;
}

/** One file of an upload: the multipart file name and its bytes. */
export interface TUploadFile {
  filename: string;
  bytes: Uint8Array;
}

interface TCall {
  method?: string;
  token?: string;
  adminCode?: string;
  body?: unknown;
  form?: FormData;
  timeoutMs?: number;
}

/**
 * The gateway's HTTP API as the benchmarks use it. Every answer is validated with its
 * contracts schema (a wrong answer fails the benchmark instead of being timed); every call has
 * a timeout (default 30 s).
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly defaultTimeoutMs = 30_000,
  ) {}

  /**
   * Calls `path` and parses the JSON answer with `schema`.
   * @throws ApiError for a non-2xx answer; a ZodError when the answer breaks its contract;
   *   a TimeoutError after `timeoutMs`.
   */
  async call<S extends z.ZodType>(path: string, schema: S, init: TCall = {}): Promise<z.infer<S>> {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.adminCode) headers['x-access-code'] = init.adminCode;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(new URL(path, this.baseUrl), {
      method: init.method ?? (init.body !== undefined || init.form ? 'POST' : 'GET'),
      headers,
      body: init.form ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
      signal: AbortSignal.timeout(init.timeoutMs ?? this.defaultTimeoutMs),
    });
    const text = await res.text();
    if (!res.ok) {
      let message = text || res.statusText;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        // not JSON: keep the text
      }
      throw new ApiError(res.status, message);
    }
    return schema.parse(text ? JSON.parse(text) : null);
  }

  /** `POST /api/admin/generate-code`: a new access code with `maxUses` uses (its canonical text). */
  async generateCode(adminCode: string, maxUses: number): Promise<string> {
    const answer = await this.call('/api/admin/generate-code', ZGenerateCodeAnswer, {
      adminCode,
      body: { maxUses },
    });
    return answer.code.code;
  }

  /** `POST /api/register`: a new user holding `accessCode`; returns its session. */
  async register(email: string, accessCode: string): Promise<TBenchUser> {
    const answer = await this.call('/api/register', ZSessionAnswer, {
      body: { email, accessCode },
    });
    return { email, token: answer.sessionToken };
  }

  /**
   * Registers `count` users with one access code generated for them (the admin code itself is
   * never handed to users). Emails are unique per call.
   */
  async createUsers(adminCode: string, count: number): Promise<TBenchUser[]> {
    const code = await this.generateCode(adminCode, count);
    const tag = randomBytes(4).toString('hex');
    const users: TBenchUser[] = [];
    for (let i = 0; i < count; i++)
      users.push(await this.register(`bench-${tag}-${i}@example.com`, code));
    return users;
  }

  /** `POST /api/analyze`: starts an audit; returns its id. */
  async analyze(user: TBenchUser, body: TAnalyzeRequest): Promise<string> {
    return (await this.call('/api/analyze', ZAnalyzeAnswer, { token: user.token, body })).id;
  }

  /** `GET /api/audit/{id}`. */
  async audit(user: TBenchUser, id: string): Promise<TAudit> {
    return this.call(`/api/audit/${encodeURIComponent(id)}`, ZAudit, { token: user.token });
  }

  /** `DELETE /api/admin/cache/app/{appId}`: drops the app's snapshots (a cold cache). */
  async clearAppCache(adminCode: string, appId: string): Promise<TClearCacheAnswer> {
    return this.call(`/api/admin/cache/app/${encodeURIComponent(appId)}`, ZClearCacheAnswer, {
      adminCode,
      method: 'DELETE',
    });
  }

  /** `POST /api/uploads` (multipart): the merge answer. `timeoutMs` defaults to 5 minutes. */
  async upload(
    user: TBenchUser,
    files: Partial<Record<TUploadField, TUploadFile>>,
    timeoutMs = 300_000,
  ): Promise<TUploadResult> {
    const form = new FormData();
    for (const [field, file] of Object.entries(files)) {
      form.append(field, new Blob([file.bytes], { type: 'text/csv' }), file.filename);
    }
    return this.call('/api/uploads', ZUploadResult, { token: user.token, form, timeoutMs });
  }

  /** `GET /api/chart-data/{downloadId}`. */
  async chartData(user: TBenchUser, downloadId: string): Promise<TChartData> {
    return this.call(`/api/chart-data/${encodeURIComponent(downloadId)}`, ZChartData, {
      token: user.token,
    });
  }

  /** `GET /api/reports/{downloadId}?start&end` (days `YYYY-MM-DD`, inclusive). */
  async report(
    user: TBenchUser,
    downloadId: string,
    range?: { start: string; end: string },
  ): Promise<TKpiReport> {
    const query = range ? `?start=${range.start}&end=${range.end}` : '';
    return this.call(`/api/reports/${encodeURIComponent(downloadId)}${query}`, ZKpiReport, {
      token: user.token,
    });
  }
}
