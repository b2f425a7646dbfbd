import { z } from 'zod';
import { ZAppId, ZIsoDateTime, ZText, ZUuid } from './common';

/**
 * An access code as admins see it (docs/product.md#entities: Access code). `code` is the canonical
 * form (upper case, groups of four joined by dashes, e.g. `ABCD-EFGH-JKMN-PQRS`), or null for
 * an admin code, which is stored only as a hash (name it by `id`); timestamps are ISO 8601
 * UTC; `expires_at` null means it never expires.
 */
export const ZAccessCode = z.object({
  id: z.string(),
  code: z.string().nullable(),
  max_uses: z.number().int(),
  uses: z.number().int(),
  is_admin: z.boolean(),
  active: z.boolean(),
  expires_at: ZIsoDateTime.nullable(),
  created_at: ZIsoDateTime,
});
export type TAccessCode = z.infer<typeof ZAccessCode>;

/**
 * A whole number >= 1 given as a JSON number or a string of decimal digits (form fields). Any
 * other string ("0x41", "1e3", " 5") is refused rather than read as some number.
 */
const positiveWhole = (field: string, max: number, unit = '') =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,10}$/, `${field} must be a whole number${unit}`)
          .transform(Number),
      ],
      { error: `${field} must be a number` },
    )
    .pipe(
      z
        .number()
        .int(`${field} must be a whole number${unit}`)
        .min(1, `${field} must be at least 1${unit}`)
        .max(max, `${field} must be at most ${max}${unit}`),
    );

/**
 * Body of `POST /api/admin/generate-code` (docs/product.md#limits-and-constants): `maxUses` >= 1
 * (default 3), optional `expiresIn` in days >= 1 (absent: the code never expires).
 */
export const ZGenerateCodeBody = z.preprocess(
  // No body at all (null or undefined) means every default.
  (body) => body ?? {},
  z.object({
    maxUses: positiveWhole('maxUses', 1_000_000).default(3),
    expiresIn: positiveWhole('expiresIn', 3650, ' (days)').optional(),
  }),
);
export type TGenerateCodeBody = z.infer<typeof ZGenerateCodeBody>;

/** Answer of `POST /api/admin/generate-code`: the new code with its limits. */
export const ZGenerateCodeAnswer = z.object({ code: ZAccessCode });
export type TGenerateCodeAnswer = z.infer<typeof ZGenerateCodeAnswer>;

/** Path of `DELETE /api/admin/codes/{code}` (any case, dashes optional). */
export const ZAdminCodeParams = z.object({
  code: ZText.trim().min(1, 'code is required').max(64),
});

/**
 * Answer of `DELETE /api/admin/codes/{code}`: the code, now inactive, and how many sessions
 * opened with it were revoked.
 */
export const ZDeactivateCodeAnswer = z.object({
  success: z.literal(true),
  code: ZAccessCode,
  revokedSessions: z.number().int(),
});
export type TDeactivateCodeAnswer = z.infer<typeof ZDeactivateCodeAnswer>;

/**
 * Audit history item (docs/product.md#entities), newest first: `accessCode` is the code the audit
 * was started with (null when unknown), `isAdminCode` whether that was an admin code; `status` is
 * the audit status (queued, running, done, failed) and `error` its user-facing error.
 */
export const ZAuditHistoryItem = z.object({
  id: z.string(),
  appName: z.string().nullable(),
  appStoreUrl: z.string(),
  accessCode: z.string().nullable(),
  isAdminCode: z.boolean(),
  status: z.string(),
  error: z.string().nullable(),
  createdAt: ZIsoDateTime,
  /** 'heuristic' or 'openai' once the audit finished, else null. */
  provider: z.string().nullable().optional(),
  /** Rules catalogue version that scored the audit. */
  rulesVersion: z.string().nullable().optional(),
  /** Tokens of the audit's model calls; null for the heuristic provider or when unknown. */
  tokens: z
    .object({
      prompt: z.number().int().nonnegative(),
      completion: z.number().int().nonnegative(),
      calls: z.number().int().nonnegative(),
    })
    .nullable()
    .optional(),
});
export type TAuditHistoryItem = z.infer<typeof ZAuditHistoryItem>;

/**
 * Admin audits summary (docs/product.md#entities): the admin screen's counts (audits, apps
 * audited, active access codes, feedback entries), and the latest audited apps (at most 100),
 * ordered by their latest audit, each with its number of audits and its latest ones (at most
 * 20, newest first); `appName` is the latest known name. Bounded whatever the number of audits.
 */
export const ZAdminAuditsSummary = z.object({
  totalAudits: z.number().int(),
  uniqueApps: z.number().int(),
  activeCodes: z.number().int(),
  feedbackEntries: z.number().int(),
  apps: z.array(
    z.object({
      appId: z.string(),
      appName: z.string().nullable(),
      auditCount: z.number().int(),
      audits: z.array(z.object({ id: z.string(), createdAt: ZIsoDateTime })),
    }),
  ),
});
export type TAdminAuditsSummary = z.infer<typeof ZAdminAuditsSummary>;

/** Feedback as the admin list shows it (docs/product.md#entities: Feedback), newest first. */
export const ZAdminFeedback = z.object({
  id: z.string(),
  auditId: z.string(),
  feedback: z.string(),
  appName: z.string().nullable(),
  createdAt: ZIsoDateTime,
});
export type TAdminFeedback = z.infer<typeof ZAdminFeedback>;

/**
 * One cached app (its snapshots in one storefront) in the admin cache management list:
 * `snapshots` is how many scrapes are stored, `lastFetchedAt` the latest one.
 */
export const ZCachedApp = z.object({
  appId: z.string(),
  storefront: z.string(),
  appName: z.string().nullable(),
  snapshots: z.number().int(),
  lastFetchedAt: ZIsoDateTime,
});
export type TCachedApp = z.infer<typeof ZCachedApp>;

/** Path of `DELETE /api/admin/cache/app/{appId}`. */
export const ZAdminCacheAppParams = z.object({ appId: ZAppId });

/**
 * Answer of `DELETE /api/admin/cache/app/{appId}`: `cleared` is how many cached snapshots were
 * retired from the cache (0 when none were cached), in every storefront. They are kept as the
 * app's history.
 */
export const ZClearCacheAnswer = z.object({ appId: z.string(), cleared: z.number().int() });
export type TClearCacheAnswer = z.infer<typeof ZClearCacheAnswer>;

/** Path of `DELETE /api/admin/audits/{id}`. */
export const ZAdminAuditParams = z.object({ id: ZUuid });

/** Answer of `DELETE /api/admin/audits/{id}` (docs/product.md#api-calls). */
export const ZDeleteAuditAnswer = z.object({
  success: z.literal(true),
  deletedAudit: z.object({ id: z.string(), appName: z.string().nullable() }),
});
export type TDeleteAuditAnswer = z.infer<typeof ZDeleteAuditAnswer>;

/** Hours the admin's "Store data health" card looks back. */
export const STORE_HEALTH_HOURS = 24;

/**
 * Answer of `GET /api/admin/store-health`: the store reader's drift alarm over the last
 * {@link STORE_HEALTH_HOURS} hours. `byLayout`: store reads per product page layout read
 * (`ember`, `2025`, `jsonld`, `none` without a page, `unknown` when no parser recognised it),
 * most first. `fields`: per listing field, the reads whose page layout carries it (`expected`),
 * how many of those pages gave it (`found`) and the share found (ratio 0-1). `failures`: the
 * latest reads whose page, or the whole read, failed, newest first, with the app and
 * storefront, the error and the fields the page lacked.
 */
export const ZStoreHealth = z.object({
  since: ZIsoDateTime,
  hours: z.number().int().positive(),
  reads: z.number().int().nonnegative(),
  byLayout: z.array(z.object({ layout: z.string(), reads: z.number().int().nonnegative() })),
  fields: z.array(
    z.object({
      field: z.string(),
      found: z.number().int().nonnegative(),
      expected: z.number().int().nonnegative(),
      share: z.number().min(0).max(1),
    }),
  ),
  failures: z.array(
    z.object({
      appId: z.string(),
      storefront: z.string(),
      appName: z.string().nullable(),
      layout: z.string(),
      pageStatus: z.string(),
      error: z.string(),
      missingFields: z.array(z.string()),
      readAt: ZIsoDateTime,
    }),
  ),
  /**
   * The keyword search reads' empty-answer alarm (docs/product.md#keyword-ranks): `alarm` while
   * it is raised (null otherwise) with when, why (`detail`), and what it paused: the keyword
   * rounds, which read only one suspect term per round until one answers with results again
   * (`pausedTerms`: tracked terms due and waiting; `suspectTerms`: terms whose last answer was
   * a suspicious empty one). `lastClearedAt`: when the last alarm was cleared (null: never).
   */
  keywordSearch: z.object({
    alarm: z
      .object({
        raisedAt: ZIsoDateTime,
        detail: z.string(),
        paused: z.literal('keyword-rounds'),
        pausedTerms: z.number().int().nonnegative(),
        suspectTerms: z.number().int().nonnegative(),
      })
      .nullable(),
    lastClearedAt: ZIsoDateTime.nullable(),
  }),
});
export type TStoreHealth = z.infer<typeof ZStoreHealth>;

/**
 * A user as the admin's Users card shows it: email, creation and last sign-in (ISO 8601 UTC;
 * null: never signed in since sign-in times are kept), and whether a personal sign-in code
 * was issued (users who registered before personal codes have none until an admin issues one).
 * `storageBytes`: what the user stores now (uploads, datasets, PDFs; bytes), counted against
 * the gateway's `USER_STORAGE_QUOTA_MB`. `lockouts`: how many times sign-in attempts for the
 * user's email were refused past a limit (someone guessing, or the user mistyping), the latest
 * beginning at `lastLockoutAt` (null: never).
 */
export const ZAdminUser = z.object({
  id: z.string(),
  email: z.string(),
  createdAt: ZIsoDateTime,
  lastSignInAt: ZIsoDateTime.nullable(),
  hasSignInCode: z.boolean(),
  storageBytes: z.number().int().nonnegative(),
  lockouts: z.number().int().nonnegative(),
  lastLockoutAt: ZIsoDateTime.nullable(),
});
export type TAdminUser = z.infer<typeof ZAdminUser>;

/** Path of `POST /api/admin/users/{id}/sign-in-code`. */
export const ZAdminUserParams = z.object({ id: ZText.min(1).max(64) });

/**
 * Answer of `POST /api/admin/users/{id}/sign-in-code`: the user and their new personal sign-in
 * code, given this once (the previous code stops working).
 */
export const ZIssueSignInCodeAnswer = z.object({ user: ZAdminUser, signInCode: z.string() });
export type TIssueSignInCodeAnswer = z.infer<typeof ZIssueSignInCodeAnswer>;
