/**
 * Zod's configuration for the browser, imported first by `main.tsx`. Zod 4 probes for
 * `new Function` to compile fast parsers; the app's Content-Security-Policy (`script-src
 * 'self'`, no 'unsafe-eval') refuses it, and Chrome logs that refusal as an issue. Jitless
 * parsing never tries.
 */
import { config } from 'zod';

config({ jitless: true });
