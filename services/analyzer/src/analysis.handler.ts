import { UnrecoverableError, type JobHandler } from '@aso/queue';
import type { WorkerDeps } from './service';

/** Builds the `analysis` job handler (DESIGN section 2, point 5). */
export function createAnalysisHandler(_deps: WorkerDeps): JobHandler<'analysis'> {
  return async () => {
    throw new UnrecoverableError('analysis handler not built yet');
  };
}
