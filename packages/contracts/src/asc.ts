import { z } from 'zod';
import { ZIsoDateTime, ZUuid } from './common';

/**
 * App Store Connect connections (an API key of the Analytics Reports API), imports of an
 * app's daily reports and the imported figures.
 */

/** Connections a user may have by default (`ASC_CONNECTIONS_MAX_PER_USER`). */
export const ASC_CONNECTIONS_MAX_PER_USER_DEFAULT = 10;
/** Longest PEM accepted (characters); a P-256 .p8 is about 250. */
export const ASC_PRIVATE_KEY_MAX_CHARS = 4096;

/**
 * Body of `POST /api/asc/connections`: a name of the user's choice, the issuer id (a UUID,
 * Users and Access > Integrations > App Store Connect API), the key id (10 characters) and the
 * PEM text of the downloaded .p8 private key (an EC P-256 key).
 */
export const ZAscConnectionBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'name is required')
    .max(100, 'name is too long (100 characters at most)'),
  // Apple's issuer ids have the UUID form but not always RFC 4122's version and variant bits
  // (e.g. 57246542-96fe-1a63-e053-0824d011072a), so the form alone is checked.
  issuerId: z
    .string()
    .trim()
    .regex(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      'issuerId must be the issuer id shown in App Store Connect (a UUID)',
    ),
  keyId: z
    .string()
    .trim()
    .regex(
      /^[A-Z0-9]{8,16}$/,
      'keyId must be the key id shown in App Store Connect (10 letters and digits)',
    ),
  privateKey: z
    .string()
    .min(1, 'privateKey is required')
    .max(ASC_PRIVATE_KEY_MAX_CHARS, 'privateKey is too long to be a .p8 key'),
});
export type TAscConnectionBody = z.infer<typeof ZAscConnectionBody>;

/** An app the key sees. */
export const ZAscApp = z.object({ appId: z.string(), name: z.string(), bundleId: z.string() });
export type TAscApp = z.infer<typeof ZAscApp>;

/** State of an import. */
export const ZAscImportState = z.enum(['queued', 'running', 'done', 'failed']);
export type TAscImportState = z.infer<typeof ZAscImportState>;

/**
 * An import of one app: what it found and stored so far (reports found, instances read,
 * segments downloaded, figures written) and, when it failed, why in words. `notice`: what an
 * import that went through could not do, in words (e.g. history not requested: the one-time
 * snapshot needs a key with the Admin role); null when there is nothing to say.
 */
export const ZAscImport = z.object({
  importId: ZUuid,
  appId: z.string(),
  state: ZAscImportState,
  reportsFound: z.number().int(),
  instances: z.number().int(),
  segments: z.number().int(),
  rows: z.number().int(),
  error: z.string().nullable(),
  notice: z.string().nullable(),
  createdAt: ZIsoDateTime,
  finishedAt: ZIsoDateTime.nullable(),
});
export type TAscImport = z.infer<typeof ZAscImport>;

/** A connection as answers show it: never any key material. `imports`: each app's last. */
export const ZAscConnection = z.object({
  id: ZUuid,
  name: z.string(),
  issuerId: z.string(),
  keyId: z.string(),
  createdAt: ZIsoDateTime,
  apps: z.array(ZAscApp),
  imports: z.array(ZAscImport).optional(),
});
export type TAscConnection = z.infer<typeof ZAscConnection>;

export const ZAscConnectionParams = z.object({ id: ZUuid });
export const ZAscAppParams = z.object({
  id: ZUuid,
  appId: z.string().regex(/^\d{1,20}$/, "appId must be the app's Apple id (digits)"),
});
export const ZAscImportParams = z.object({ importId: ZUuid });

/** Answer of `POST /api/asc/connections/{id}/apps/{appId}/import`. */
export const ZAscImportStarted = z.object({ importId: ZUuid });

const ZDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');

/** Query of the metrics: a date range (inclusive, at most 3 years) and optional filters. */
export const ZAscMetricsQuery = z
  .object({
    from: ZDay,
    to: ZDay,
    territory: z.string().min(1).max(60, 'territory is too long').optional(),
    device: z.string().min(1).max(40).optional(),
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 3 * 366 * 86_400_000, {
    message: 'the range is limited to three years',
    path: ['to'],
  });
export type TAscMetricsQuery = z.infer<typeof ZAscMetricsQuery>;

/**
 * One day and source type of imported figures: sums of Counts over the other dimensions
 * (impressions: Event "Impression"; product page views: Event "Page view"; first-time
 * downloads and redownloads: Download Type). `provisional`: the day is not yet past the
 * reports' completeness window, so the figures may still rise.
 */
export const ZAscMetricsRow = z.object({
  date: ZDay,
  sourceType: z.string(),
  impressions: z.number().int(),
  productPageViews: z.number().int(),
  firstTimeDownloads: z.number().int(),
  redownloads: z.number().int(),
  provisional: z.boolean(),
});
export type TAscMetricsRow = z.infer<typeof ZAscMetricsRow>;

/** Answer of the metrics: rows by date then source type, and the filters' values. */
export const ZAscMetrics = z.object({
  rows: z.array(ZAscMetricsRow),
  territories: z.array(z.string()),
  devices: z.array(z.string()),
});
export type TAscMetrics = z.infer<typeof ZAscMetrics>;
