/**
 * @aso/analytics: the dashboard math of docs/product.md#entities and #dashboard-computation (dates,
 * metric columns, traffic sources, conversion rates, periods, changes, spikes, commentary,
 * executive summary, monthly report). Pure and browser-safe: no I/O, no Node modules. Used by the
 * web dashboard and by the api's reports call, so both show the same figures and sentences.
 */
export * from './sources.constants';
export * from './date.helpers';
export * from './number.parser';
export * from './columns.resolver';
export * from './metrics.calculator';
export * from './period-change.calculator';
export * from './period-comparison.builder';
export * from './spike.detector';
export * from './format.helpers';
export * from './commentary.writer';
export * from './executive-summary.writer';
export * from './monthly-report.builder';
export * from './source-series.builder';
export * from './kpi-report.builder';
export * from './change-impact.builder';
