#!/usr/bin/env node
import { loadCliEnv, type TCliEnv } from './env';
import { runCli } from './aso.cli';

// The `pnpm aso` process: parse the environment (exit 2 naming the bad variable), then run
// the command; the exit code is runCli's.
let env: TCliEnv;
try {
  env = loadCliEnv();
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(2);
}
process.exitCode = await runCli(process.argv.slice(2), env, {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
});
