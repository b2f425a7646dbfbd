import { Counter, type Registry } from 'prom-client';
import {
  AppNotFoundError,
  describeStoreError,
  PageParseError,
  pageLayoutFields,
  StoreUnavailableError,
  type StoreError,
  UnknownPageLayoutError,
  type TFetchAppListingResult,
  type TSourceReport,
} from '@aso/appstore/node';
import type { TListingField } from '@aso/contracts';
import { insertStoreRead, type TDb, type TNewStoreReadInput } from '@aso/db';
import { METRIC_PREFIX } from '@aso/queue';

/**
 * The drift alarm of the store reader (docs/product.md#store-data-sources): each store read
 * is recorded in `store_reads` (layout read, how the page went, the page fields found and
 * missing, the error) and every field a page lacked is counted in
 * `aso_store_fields_missing_total{layout,field}`. When Apple changes the product page, that
 * counter rises for the fields the parser no longer finds, and a page no parser recognises
 * counts with `layout="unknown"` for every field a page is read for.
 */

/** Name of the missing-fields counter. */
export const STORE_FIELDS_MISSING_METRIC = `${METRIC_PREFIX}store_fields_missing_total`;

/** Counts the fields product pages lacked, per layout. */
export interface TStoreReadMetrics {
  countMissing(layout: string, fields: readonly string[]): void;
}

/** Registers `aso_store_fields_missing_total{layout,field}` in `registry`. */
export function createStoreReadMetrics(registry: Registry): TStoreReadMetrics {
  const missing = new Counter({
    name: STORE_FIELDS_MISSING_METRIC,
    help: 'Listing fields a product page of this layout should carry but did not, per store read (layout "unknown": no parser recognised the page).',
    labelNames: ['layout', 'field'] as const,
    registers: [registry],
  });
  return {
    countMissing(layout, fields) {
      for (const field of fields) missing.inc({ layout, field });
    },
  };
}

/** The layout and fields of a page that could not be read, from its parser's error. */
function unreadPage(error: StoreError | undefined): {
  layout: string;
  missing: TListingField[];
} {
  if (error instanceof UnknownPageLayoutError) {
    return { layout: 'unknown', missing: pageLayoutFields('unknown') };
  }
  if (error instanceof PageParseError && ['ember', '2025', 'jsonld'].includes(error.layout)) {
    const layout = error.layout as 'ember' | '2025' | 'jsonld';
    return { layout, missing: pageLayoutFields(layout) };
  }
  return { layout: 'none', missing: [] };
}

function pageError(report: TSourceReport): string | null {
  if (report.status !== 'failed') return null;
  return `product page: ${report.cause ? describeStoreError(report.cause) : (report.error ?? 'failed')}`;
}

/** The store read of a scrape that returned a listing. */
export function storeReadOfResult(result: TFetchAppListingResult): TNewStoreReadInput {
  const { listing, page, sources } = result;
  const base = {
    appId: listing.appId,
    storefront: listing.storefront,
    appName: listing.appName === '' ? null : listing.appName,
    pageStatus: sources.page.status,
    error: pageError(sources.page),
  };
  if (page) {
    return {
      ...base,
      layout: page.layout,
      foundFields: page.supplied.filter((f) => page.carries.includes(f)),
      missingFields: page.missing,
    };
  }
  const unread = unreadPage(sources.page.cause);
  return { ...base, layout: unread.layout, foundFields: [], missingFields: unread.missing };
}

/**
 * The store read of a scrape that failed with `error` (no listing): the page's own error when
 * the store client names one (unknown layout, unreadable data), else the read's error.
 */
export function storeReadOfFailure(
  error: StoreError,
  app: { appId: string; storefront: string },
): TNewStoreReadInput {
  const pageCause =
    error instanceof StoreUnavailableError ? error.causes['product page'] : undefined;
  const unread = unreadPage(pageCause ?? error);
  return {
    appId: app.appId,
    storefront: app.storefront,
    appName: null,
    layout: unread.layout,
    pageStatus: error instanceof AppNotFoundError ? 'not_found' : 'failed',
    foundFields: [],
    missingFields: unread.missing,
    error: pageCause ? `product page: ${describeStoreError(pageCause)}` : describeStoreError(error),
  };
}

/**
 * Records one store read: counts its missing fields, then stores it. Storing is best effort
 * (the drift record must never fail a scrape): an error is passed to `onError`.
 */
export async function recordStoreRead(
  deps: { db: TDb; metrics: TStoreReadMetrics },
  read: TNewStoreReadInput,
  onError: (error: unknown) => void,
): Promise<void> {
  deps.metrics.countMissing(read.layout, read.missingFields);
  try {
    await insertStoreRead(deps.db, read);
  } catch (error) {
    onError(error);
  }
}
