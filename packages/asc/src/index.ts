/**
 * @aso/asc: App Store Connect through Apple's Analytics Reports API: the signed, rate-aware
 * API client, the sealed storage of private keys, the report reader (tab-separated text by
 * header name) and the completeness rules. The stand-in server is `@aso/asc/stand-in`.
 */
export * from './asc-token';
export * from './asc.client';
export { AscApiError } from './asc.errors';
export * from './asc.rate-limit';
export type {
  TAscApp,
  TAscReport,
  TAscReportInstance,
  TAscReportRequest,
  TAscSegment,
} from './asc.resources';
export * from './secret-box';
export * from './report-tsv';
export * from './instance-ledger';
export * from './metric-rows';
