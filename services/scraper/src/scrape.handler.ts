import { UnrecoverableError, type JobHandler } from '@aso/queue';
import type { WorkerDeps } from './service';

/** Builds the `scrape` job handler (DESIGN section 2, point 4). */
export function createScrapeHandler(_deps: WorkerDeps): JobHandler<'scrape'> {
  return async () => {
    throw new UnrecoverableError('scrape handler not built yet');
  };
}
