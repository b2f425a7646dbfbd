import { z } from 'zod';

/** An access code as admins see it (spec section 3: Access code). */
export const ZAccessCode = z.object({
  id: z.string(),
  code: z.string(),
  max_uses: z.number().int(),
  uses: z.number().int(),
  is_admin: z.boolean(),
  active: z.boolean(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
});
export type TAccessCode = z.infer<typeof ZAccessCode>;

/** Body of `POST /api/admin/generate-code`: maxUses >= 1 (default 3), expiresIn days >= 1. */
export const ZGenerateCodeBody = z.object({
  maxUses: z.coerce.number().int('maxUses must be a whole number').min(1).default(3),
  expiresIn: z.coerce.number().int('expiresIn must be a whole number of days').min(1).optional(),
});
export type TGenerateCodeBody = z.infer<typeof ZGenerateCodeBody>;

/** Answer of `POST /api/admin/generate-code`. */
export const ZGenerateCodeAnswer = z.object({ code: ZAccessCode });

/** Audit history item (spec section 3). */
export const ZAuditHistoryItem = z.object({
  id: z.string(),
  appName: z.string().nullable(),
  appStoreUrl: z.string(),
  accessCode: z.string().nullable(),
  isAdminCode: z.boolean(),
  status: z.string(),
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type TAuditHistoryItem = z.infer<typeof ZAuditHistoryItem>;

/** Admin audits summary (spec section 3). */
export const ZAdminAuditsSummary = z.object({
  totalAudits: z.number().int(),
  uniqueApps: z.number().int(),
  apps: z.array(
    z.object({
      appId: z.string(),
      appName: z.string().nullable(),
      audits: z.array(z.object({ id: z.string(), createdAt: z.string() })),
    }),
  ),
});
export type TAdminAuditsSummary = z.infer<typeof ZAdminAuditsSummary>;

/** Feedback as the admin list shows it (spec section 3: Feedback). */
export const ZAdminFeedback = z.object({
  id: z.string(),
  auditId: z.string(),
  feedback: z.string(),
  appName: z.string().nullable(),
  createdAt: z.string(),
});
export type TAdminFeedback = z.infer<typeof ZAdminFeedback>;

/** One cached app (snapshots) in the admin cache management list. */
export const ZCachedApp = z.object({
  appId: z.string(),
  storefront: z.string(),
  appName: z.string().nullable(),
  snapshots: z.number().int(),
  lastFetchedAt: z.string(),
});
export type TCachedApp = z.infer<typeof ZCachedApp>;

/** Answer of `DELETE /api/admin/cache/app/{appId}`. */
export const ZClearCacheAnswer = z.object({ appId: z.string(), cleared: z.number().int() });

/** Answer of `DELETE /api/admin/audits/{id}` (spec section 7). */
export const ZDeleteAuditAnswer = z.object({
  success: z.literal(true),
  deletedAudit: z.object({ id: z.string(), appName: z.string().nullable() }),
});
