/**
 * @aso/asc/stand-in: a stand-in of the App Store Connect API's Analytics Reports endpoints
 * (real HTTP, Apple's documented rules, CONSTRUCTED report data) for tests, benchmarks and the
 * offline demo.
 */
export * from './stand-in.server';
export * from './report-generator';
export * from './demo.constructed';
export * from './demo.stand-in';
