import { DEMO_ASC_APPS, DEMO_STAND_IN_KEY } from './demo.constructed';
import { startAscStandIn, type TAscStandIn } from './stand-in.server';

/**
 * Starts the offline demo's stand-in on `port`: the demo key and apps, `days` days (default
 * 120) of CONSTRUCTED daily figures ending yesterday (today's instance is the newest).
 */
export function startDemoStandIn(
  port: number,
  host = '127.0.0.1',
  days = 120,
): Promise<TAscStandIn> {
  const today = new Date().toISOString().slice(0, 10);
  const first = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  return startAscStandIn({
    port,
    host,
    keys: [DEMO_STAND_IN_KEY],
    apps: DEMO_ASC_APPS,
    seed: 7,
    firstDate: first,
    lastProcessingDate: today,
  });
}
