/**
 * `@aso/appstore/recordings`: the project's constructed store answers of invented apps, for the
 * suites that serve them through the replay server (the api's integration tests, the browser
 * suite). Test data only: read from the sources, never built.
 */
export * from './constructed.recordings';
export * from './constructed.search-recordings';
