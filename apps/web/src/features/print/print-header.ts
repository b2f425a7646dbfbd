/**
 * The line the render worker prints at the top of every page of an audit's PDF (read from the
 * print page's `data-print-header`). Pure, no React.
 */
import { storeDataWhen, type TAudit } from '@aso/contracts';

/** `2026-11-28 09:14 UTC` of an ISO 8601 time. */
function utcMinute(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime())
    ? iso
    : `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The page header of an audit's PDF: the app, the storefront and when its store data was read
 * ('Spotify · US storefront · Store data read 2026-11-28 09:14 UTC'; in offline replay 'Store
 * data recorded 2026-06 (offline replay)', see `storeDataWhen` of @aso/contracts); the footer
 * adds the report's kind and the page numbers. Audits stored before store data was dated name
 * the time the audit ran instead ('Audit of 2026-11-28 09:15 UTC').
 */
export function auditPrintHeader(
  audit: Pick<TAudit, 'appName' | 'storefront' | 'storeData' | 'completedAt' | 'createdAt'>,
): string {
  const when = audit.storeData ? storeDataWhen(audit.storeData) : null;
  return [
    audit.appName ?? 'App',
    `${audit.storefront.toUpperCase()} storefront`,
    when ? `Store data ${when}` : `Audit of ${utcMinute(audit.completedAt ?? audit.createdAt)}`,
  ].join(' · ');
}
