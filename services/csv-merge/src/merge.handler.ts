import { UnrecoverableError, type JobHandler } from '@aso/queue';
import type { WorkerDeps } from './service';

/** Builds the `merge` job handler (DESIGN section 3, point 2). */
export function createMergeHandler(_deps: WorkerDeps): JobHandler<'merge'> {
  return async () => {
    throw new UnrecoverableError('merge handler not built yet');
  };
}

/** Builds the hourly `cleanup-expired` handler (DESIGN section 3, point 3). */
export function createCleanupHandler(_deps: WorkerDeps): JobHandler<'cleanup-expired'> {
  return async () => {
    throw new UnrecoverableError('cleanup handler not built yet');
  };
}
