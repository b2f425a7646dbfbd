import type { TTrafficSourceId } from '@aso/contracts';

/** A traffic source type as App Store Connect names it in its export headers. */
export interface TTrafficSource {
  id: TTrafficSourceId;
  /** Apple's source type name and the header prefix, e.g. 'App Store Search'. */
  name: string;
  /** Short chart title, e.g. 'Search'. */
  label: string;
}

/**
 * The four sources of the dashboard, in the documented order (docs/product.md#entities: Traffic
 * sources; Apple: "View acquisition sources").
 */
export const DASHBOARD_SOURCES: readonly TTrafficSource[] = [
  { id: 'search', name: 'App Store Search', label: 'Search' },
  { id: 'browse', name: 'App Store Browse', label: 'Browse' },
  { id: 'app_referrer', name: 'App Referrer', label: 'App Referrer' },
  { id: 'web_referrer', name: 'Web Referrer', label: 'Web Referrer' },
];

/** The three sources the monthly report adds (docs/product.md#entities: Traffic sources). */
export const EXTRA_MONTHLY_SOURCES: readonly TTrafficSource[] = [
  { id: 'institutional_purchase', name: 'Institutional Purchase', label: 'Institutional Purchase' },
  { id: 'unavailable', name: 'Unavailable', label: 'Unavailable' },
  { id: 'event_notification', name: 'Event Notification', label: 'Event Notification' },
];

/** All seven sources: the dashboard's four, then the monthly report's three. */
export const ALL_SOURCES: readonly TTrafficSource[] = [
  ...DASHBOARD_SOURCES,
  ...EXTRA_MONTHLY_SOURCES,
];

/** Looks a source up by id. */
export function getSource(id: TTrafficSourceId): TTrafficSource {
  const source = ALL_SOURCES.find((s) => s.id === id);
  if (!source) throw new RangeError(`unknown traffic source id '${String(id)}'`);
  return source;
}
