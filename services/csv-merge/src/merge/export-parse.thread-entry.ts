// The parse threads' task (see ExportParsePool): built to
// `dist/merge/export-parse.thread-entry.js` with the service, and bundled on the fly from this
// file when the service runs from its sources.
export { serveExportParse as default } from './export-parse.worker';
