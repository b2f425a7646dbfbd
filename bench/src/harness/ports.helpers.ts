import { createServer } from 'node:net';

/** Ports this benchmark may use (house rule: 4280-4299 for the benchmark's api and replay server). */
export const BENCH_PORT_RANGE = { first: 4280, last: 4299 } as const;

const taken = new Set<number>();

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port of {@link BENCH_PORT_RANGE} that nothing listens on and that this process has not
 * handed out yet (so a full `pnpm bench` and the smoke test can run side by side).
 * @throws Error when every port of the range is in use.
 */
export async function freeBenchPort(): Promise<number> {
  for (let port = BENCH_PORT_RANGE.first; port <= BENCH_PORT_RANGE.last; port++) {
    if (taken.has(port)) continue;
    if (await isFree(port)) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${BENCH_PORT_RANGE.first}-${BENCH_PORT_RANGE.last}`);
}

/** Gives a port from {@link freeBenchPort} back. */
export function releaseBenchPort(port: number): void {
  taken.delete(port);
}
