import {
  ANALYZE_URL_ERROR,
  listingFieldState,
  isAppStoreStorefront,
  ZAuditInputs,
  ZAuditResult,
  type TAnalyzeRequest,
  type TAudit,
  type TAuditApp,
  type TAuditInputs,
  type TAuditResult,
  type TCompetitorData,
  type TFeedback,
  type TInAppEvent,
  type TListingField,
  type TSavedAudit,
  type TSaveAuditBody,
} from '@aso/contracts';
import {
  parseAppStoreUrl,
  primaryScreenshotUrls,
  selectCompetitors,
  type TParsedAppStoreUrl,
} from '@aso/appstore';
import {
  buildSavedAuditName,
  OVERALL_SCORE_MIN_JUDGED_WEIGHT,
  scoreComposition,
} from '@aso/aso-rules';
import {
  deleteSavedAudit,
  failAudit,
  findOwnedAudit,
  insertAudit,
  insertFeedback,
  insertSavedAudit,
  findSavedAuditOf,
  listAuditFeedback,
  listSavedAudits,
  type TAuditRow,
  type TDb,
  type TPage,
  type TPageRequest,
  type TFeedbackRow,
  type TSavedAuditRow,
  type TSessionIdentity,
} from '@aso/db';
import type { Producers } from '@aso/queue';
import { AppError, badRequest, notFound } from '../lib/app-error';
import { addWithinLimit } from '../lib/limits';

/**
 * Validates an analyze request with the URL rules of `@aso/appstore`
 * (docs/product.md#validation-rules) and returns the audit's inputs: the main app, the competitors
 * that are valid, non-empty and not duplicates (of the main app or an earlier competitor), at most
 * 3, in field order, and the keywords text. Throws a 400 naming the field, with the documented
 * message ('Please enter a valid App Store URL (apps.apple.com)'), when the main URL or a non-empty
 * competitor URL is not a valid App Store URL; when its storefront is not one of the App Store's,
 * the message names it ('appStoreUrl: "uk" is not an App Store storefront ...').
 */
export function buildAuditInputs(body: TAnalyzeRequest): TAuditInputs {
  // An unknown storefront gets its own message naming the code; other bad URLs the documented one.
  const urlError = (parsed: TParsedAppStoreUrl) =>
    isAppStoreStorefront(parsed.storefront) ? ANALYZE_URL_ERROR : parsed.error;
  const main = parseAppStoreUrl(body.appStoreUrl);
  if (main.status !== 'valid' || !main.appId || !main.normalizedUrl) {
    throw badRequest(`appStoreUrl: ${urlError(main)}`);
  }
  const fields = ['competitorUrl1', 'competitorUrl2', 'competitorUrl3'] as const;
  const raw = fields.map((f) => body[f] ?? '');
  raw.forEach((value, i) => {
    const parsed = parseAppStoreUrl(value);
    if (parsed.status === 'invalid') throw badRequest(`${fields[i]!}: ${urlError(parsed)}`);
  });
  const competitors: TAuditApp[] = selectCompetitors(body.appStoreUrl, raw).map((c) => ({
    appId: c.appId,
    storefront: c.storefront,
    appStoreUrl: c.normalizedUrl,
  }));
  return ZAuditInputs.parse({
    main: { appId: main.appId, storefront: main.storefront, appStoreUrl: main.normalizedUrl },
    competitors,
    keywords: (body.keywords ?? '').trim(),
  });
}

/** What {@link startAudit} uses. */
export interface TStartAuditDeps {
  db: TDb;
  producers: Producers;
}

/**
 * Starts an audit (docs/product.md#starting-an-audit): inserts the `audits` row (status `queued`,
 * the owner, the validated inputs, the access code of the caller's session) and adds ONE BullMQ
 * flow: the `analysis` parent job whose children are one `scrape` job per app (role main or
 * competitor), with deterministic job ids and `failParentOnFailure`, so a child that fails after
 * its attempts fails the audit. Returns the audit id without waiting for any job. When Redis
 * refuses the flow the audit is marked failed and a 503 is thrown.
 */
export async function startAudit(
  deps: TStartAuditDeps,
  identity: TSessionIdentity,
  inputs: TAuditInputs,
): Promise<string> {
  const audit = await insertAudit(deps.db, {
    userId: identity.userId,
    accessCodeId: identity.accessCodeId,
    appId: inputs.main.appId,
    storefront: inputs.main.storefront,
    appStoreUrl: inputs.main.appStoreUrl,
    inputs,
  });
  try {
    await deps.producers.addAuditFlow(audit.id, inputs);
  } catch (err) {
    await failAudit(deps.db, audit.id, 'The analysis could not be queued. Please try again.').catch(
      () => undefined,
    );
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'The analysis queue is unavailable. Please try again shortly.',
      { cause: err },
    );
  }
  return audit.id;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Maps an `audits` row to the documented Audit shape (docs/product.md#entities, contracts
 * `ZAudit`): the listing fields come from the main app's listing stored in the result, `keywords`
 * is the user's text, `screenshots` the iPhone screenshot URLs (iPad when there are none),
 * `competitorData` one item per competitor with its screenshot analysis, `recommendations` JSON
 * text. While the audit is not done the listing fields are null and lists empty; a field the store
 * read could not give (its store data state is `unreadable`) is null too, never the listing's
 * placeholder ('0', '').
 */
export function toAudit(row: TAuditRow): TAudit {
  const inputs = ZAuditInputs.safeParse(row.inputs);
  const keywords = inputs.success && inputs.data.keywords !== '' ? inputs.data.keywords : null;
  const base = {
    id: row.id,
    status: row.status,
    error: row.error,
    appId: row.app_id,
    storefront: row.storefront,
    appStoreUrl: row.app_store_url,
    keywords,
    provider: row.provider,
    createdAt: row.created_at.toISOString(),
    completedAt: iso(row.completed_at),
  };
  const parsed = row.status === 'done' && row.result ? ZAuditResult.safeParse(row.result) : null;
  if (!parsed?.success) {
    return {
      ...base,
      appName: row.app_name,
      subtitle: null,
      developer: null,
      category: null,
      categoryRank: null,
      rating: null,
      reviewCount: null,
      description: null,
      iconUrl: null,
      previewVideoUrl: null,
      previewPosterUrl: null,
      screenshots: [],
      ageRating: null,
      languages: null,
      price: null,
      inAppEvents: [],
      competitorData: [],
      structuredAnalysis: null,
      overallScore: null,
      recommendations: null,
      storeData: null,
    };
  }
  const r = parsed.data;
  const m = r.main;
  const inAppEvents: TInAppEvent[] = m.inAppEvents.map((e) => ({
    timeIndicator: e.timeIndicator,
    eventImage: e.eventImage,
    eventBadge: e.eventBadge,
    eventName: e.eventName,
    eventDescription: e.eventDescription,
    startDate: e.startDate ?? null,
    endDate: e.endDate ?? null,
  }));
  const competitorData: TCompetitorData[] = r.competitors.map((c, i) => ({
    appId: c.appId,
    appName: c.appName,
    subtitle: c.subtitle,
    iconUrl: c.iconUrl || null,
    rating: c.rating,
    reviewCount: c.reviewCount,
    appStoreUrl: c.appStoreUrl,
    screenshots: primaryScreenshotUrls(c),
    screenshotAnalysis: r.competitorScreenshotAnalyses[i] ?? '',
    storeData: c.storeData ? { ...c.storeData, readAt: c.fetchedAt } : null,
    screenshotAnalysisSource:
      r.competitorScreenshotSources?.[i] ?? (r.provider === 'openai' ? 'model' : 'rules'),
  }));
  // A field the store read could not give is null here, not its listing placeholder.
  const read = <T>(field: TListingField, value: T): T | null =>
    listingFieldState(m, field) === 'unreadable' ? null : value;
  return {
    ...base,
    appName: m.appName,
    subtitle: m.subtitle,
    developer: read('developer', m.developer),
    category: read('category', m.category),
    genreId: m.genreId ?? null,
    categoryRank: m.categoryRank,
    rating: read('rating', m.rating),
    reviewCount: read('reviewCount', m.reviewCount),
    description: read('description', m.description),
    iconUrl: m.iconUrl || null,
    previewVideoUrl: m.previewVideoUrl,
    previewPosterUrl: m.previewPosterUrl,
    screenshots: primaryScreenshotUrls(m),
    ageRating: read('ageRating', m.ageRating),
    languages: read('languages', m.languages),
    price: read('price', m.price),
    inAppEvents,
    competitorData,
    structuredAnalysis: olderModelTexts(r),
    // Audits scored before the judged-weight floor existed never show a score made of less
    // than half of what it weighs.
    overallScore:
      scoreComposition(r.structuredAnalysis).judgedWeight < OVERALL_SCORE_MIN_JUDGED_WEIGHT
        ? null
        : r.overallScore,
    recommendations: JSON.stringify(r.recommendations),
    storeData: m.storeData ? { ...m.storeData, readAt: m.fetchedAt } : null,
    recommendationsSource: r.recommendationsSource ?? (r.provider === 'openai' ? 'model' : 'rules'),
    rulesVersion: r.rulesVersion ?? null,
    tokenUsage: r.usage ?? null,
  };
}

/**
 * The structured analysis of a result, where an audit made before texts recorded their source
 * by the openai provider has its sections' texts marked as the model's (placeholders of
 * sections that did not exist then stay the rules').
 */
function olderModelTexts(r: TAuditResult): TAudit['structuredAnalysis'] {
  if (r.provider !== 'openai' || r.rulesVersion !== undefined) return r.structuredAnalysis;
  return Object.fromEntries(
    Object.entries(r.structuredAnalysis).map(([k, section]) => [
      k,
      section.rules.length === 0 && section.score === null
        ? section
        : { ...section, textSource: 'model' as const },
    ]),
  ) as TAudit['structuredAnalysis'];
}

/** A saved audit row in the API's shape (contracts `ZSavedAudit`). */
export function toSavedAudit(row: TSavedAuditRow): TSavedAudit {
  return {
    id: row.id,
    auditId: row.audit_id,
    name: row.name,
    storefront: row.storefront,
    createdAt: row.created_at.toISOString(),
  };
}

/** A feedback row in the API's shape (contracts `ZFeedback`). */
export function toFeedback(row: TFeedbackRow): TFeedback {
  return {
    id: row.id,
    auditId: row.audit_id,
    feedback: row.feedback,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Saves the user's own audit (docs/product.md#entities, Saved audit). The name is the body's, or
 * when it is blank '<app name> <CC> <dd-mm-yyyy>' built from the audit (`buildSavedAuditName`). An
 * audit is saved once per user: saving it again answers the saved audit already there (its first
 * name kept). 404 when the audit does not exist or is someone else's.
 */
export async function saveAudit(
  db: TDb,
  userId: string,
  body: TSaveAuditBody,
  maxSaved: number,
  now = new Date(),
): Promise<TSavedAudit> {
  const audit = await findOwnedAudit(db, body.auditId, userId);
  if (!audit) throw notFound('Audit not found');
  // Saving an audit again answers the first save, even at the limit.
  const existing = await findSavedAuditOf(db, userId, audit.id);
  if (existing) return toSavedAudit(existing);
  const name =
    body.name || buildSavedAuditName(audit.app_name ?? `App ${audit.app_id}`, body.storefront, now);
  const { row } = await addWithinLimit(
    db,
    userId,
    {
      table: 'saved_audits',
      max: maxSaved,
      what: 'saved audits',
      setting: 'SAVED_AUDITS_MAX_PER_USER',
    },
    (trx) =>
      insertSavedAudit(trx, { userId, auditId: audit.id, name, storefront: body.storefront }),
  );
  return toSavedAudit(row);
}

/** The user's saved entry of audit `auditId` (a uuid), or null. */
export async function savedAuditOf(
  db: TDb,
  userId: string,
  auditId: string,
): Promise<TSavedAudit | null> {
  const row = await findSavedAuditOf(db, userId, auditId);
  return row ? toSavedAudit(row) : null;
}

/** One page of the user's saved audits, newest first. */
export async function savedAudits(
  db: TDb,
  userId: string,
  page: TPageRequest,
): Promise<TPage<TSavedAudit>> {
  const { rows, next } = await listSavedAudits(db, userId, page);
  return { rows: rows.map(toSavedAudit), next };
}

/** Deletes the user's saved audit; 404 when it does not exist or is someone else's. */
export async function removeSavedAudit(db: TDb, userId: string, id: string): Promise<void> {
  if (!(await deleteSavedAudit(db, id, userId))) throw notFound('Saved audit not found');
}

/**
 * Records feedback about the user's own audit; 404 when it is not theirs, 409 past
 * `maxFeedback` entries of the user in all (`FEEDBACK_MAX_PER_USER`).
 */
export async function addFeedback(
  db: TDb,
  userId: string,
  auditId: string,
  feedback: string,
  maxFeedback: number,
): Promise<TFeedback> {
  const audit = await findOwnedAudit(db, auditId, userId);
  if (!audit) throw notFound('Audit not found');
  const row = await addWithinLimit(
    db,
    userId,
    {
      table: 'feedback',
      max: maxFeedback,
      what: 'feedback entries',
      setting: 'FEEDBACK_MAX_PER_USER',
    },
    (trx) => insertFeedback(trx, { auditId: audit.id, userId, feedback }),
  );
  return toFeedback(row);
}

/** One page of the feedback about the user's own audit, oldest first; 404 when it is not theirs. */
export async function auditFeedback(
  db: TDb,
  userId: string,
  auditId: string,
  page: TPageRequest,
): Promise<TPage<TFeedback>> {
  const audit = await findOwnedAudit(db, auditId, userId);
  if (!audit) throw notFound('Audit not found');
  const { rows, next } = await listAuditFeedback(db, audit.id, page);
  return { rows: rows.map(toFeedback), next };
}
