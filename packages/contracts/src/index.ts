/**
 * @aso/contracts: the single source of types for API bodies and answers, job payloads and
 * progress events (docs/product.md#system-shape). Pure zod schemas, browser-safe.
 */
export * from './common';
export * from './errors';
export * from './listing';
export * from './storefronts';
export * from './genres';
export * from './store-data';
export * from './text-measure';
export * from './count-format';
export * from './csv-cell';
export * from './progress';
export * from './audit';
export * from './auth';
export * from './admin';
export * from './analytics';
export * from './watch';
export * from './keywords';
export * from './env';
export * from './web-config';
export * from './asc';
export * from './share';
export * from './page';
export * from './node-flags';
export * from './report-pdf';
