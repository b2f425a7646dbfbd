import { startDemoStandIn } from './demo.stand-in';
import { loadStandInEnv } from './env';

// `pnpm --filter @aso/asc stand-in` and `pnpm start --offline`: the demo App Store Connect
// stand-in (demo key and apps) on ASC_STAND_IN_PORT.
const standIn = await startDemoStandIn(loadStandInEnv().ASC_STAND_IN_PORT);
console.log(`App Store Connect stand-in (demo key and apps) at ${standIn.url}`);
const stop = () => void standIn.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
