import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { JOBS, QUEUES, type TJobData, type TJobName, type TQueueName } from './catalog';

/** Typed access to every queue for producers (the gateway). */
export class Producers {
  readonly queues: Record<TQueueName, Queue>;

  /**
   * @param connection an ioredis connection made with role `producer` (fails fast when Redis is
   *   down) or connection options.
   * @param prefix BullMQ key prefix.
   */
  constructor(connection: ConnectionOptions, readonly prefix: string) {
    this.queues = Object.fromEntries(
      Object.values(QUEUES).map((q) => [q, new Queue(q, { connection, prefix })]),
    ) as Record<TQueueName, Queue>;
  }

  /**
   * Validates `data` against the catalog and adds job `name` with the catalog's options,
   * merged with `opts` (e.g. a deterministic `jobId`). Throws a ZodError on bad data.
   */
  async add<N extends TJobName>(name: N, data: TJobData<N>, opts: JobsOptions = {}) {
    const def = JOBS[name];
    const payload = def.schema.parse(data) as TJobData<N>;
    return this.queues[def.queue].add(name, payload, { ...def.options, ...opts });
  }

  /** Closes every queue's connection. */
  async close(): Promise<void> {
    await Promise.all(Object.values(this.queues).map((q) => q.close()));
  }
}
