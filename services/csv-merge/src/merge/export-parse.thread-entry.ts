// The parse thread's entry point: built to `dist/merge/export-parse.thread-entry.js` with the
// service, and bundled on the fly from this file when the service runs from its sources.
import { serveExportParse } from './export-parse.worker';

serveExportParse();
