#!/usr/bin/env node
// The built command line (`pnpm build` writes dist/): a file of its own, so that pnpm can link
// the `aso` bin at install time, before anything is built.
import '../dist/main.js';
