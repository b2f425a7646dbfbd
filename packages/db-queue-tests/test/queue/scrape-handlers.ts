import type { TJobHandler, TQueueHandlers } from '@aso/queue';

const notUsed = (name: string) => async () => {
  throw new Error(`no ${name} job is added by this test`);
};

/**
 * The handlers of every job of the `scrape` queue for a test that adds only `scrape` jobs:
 * `scrape` runs `handler`; the watch jobs, which the test never adds, throw.
 */
export function scrapeOnly(handler: TJobHandler<'scrape'>): TQueueHandlers<'scrape'> {
  return {
    scrape: handler,
    'watch-read': notUsed('watch-read'),
    'watch-round': notUsed('watch-round'),
    'keyword-round': notUsed('keyword-round'),
  };
}
