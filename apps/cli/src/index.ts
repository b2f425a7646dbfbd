// What other programs (the gateway's integration tests) run of the CLI: the command runner
// with its environment parser, and the shape `keywords --json` prints.
export { runCli, type TCliIo } from './aso.cli';
export { parseCliEnv, ZCliEnv, type TCliEnv } from './env';
export type { TKeywordsReport } from './keywords.cli';
