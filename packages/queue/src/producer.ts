import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { JOBS, type TJobData, type TJobName, type TQueueName } from './catalog';

/**
 * Typed access to every queue for producers (the gateway). Queues are opened on first use, so
 * a gateway that starts while Redis is down opens nothing until a call needs Redis.
 */
export class Producers {
  private readonly open = new Map<TQueueName, Queue>();

  /**
   * @param connection an ioredis connection made with role `producer` (fails fast when Redis is
   *   down) or connection options.
   * @param prefix BullMQ key prefix.
   */
  constructor(
    private readonly connection: ConnectionOptions,
    readonly prefix: string,
  ) {}

  /** The queue named `name` (opened on first call). */
  queue(name: TQueueName): Queue {
    let q = this.open.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      // Connection errors surface on the calls that need Redis (and on /readyz); without a
      // listener they would be thrown as unhandled errors.
      q.on('error', () => undefined);
      this.open.set(name, q);
    }
    return q;
  }

  /**
   * Validates `data` against the catalog and adds job `name` with the catalog's options,
   * merged with `opts` (e.g. a deterministic `jobId`). Throws a ZodError on bad data.
   */
  async add<N extends TJobName>(name: N, data: TJobData<N>, opts: JobsOptions = {}) {
    const def = JOBS[name];
    const payload = def.schema.parse(data) as TJobData<N>;
    return this.queue(def.queue).add(name, payload, { ...def.options, ...opts });
  }

  /**
   * Closes every opened queue. When the shared connection never became ready (Redis down),
   * the queues are left to that connection's owner: closing them then makes BullMQ emit an
   * 'error' after its listeners are gone, which would crash the process.
   */
  async close(): Promise<void> {
    if (this.connection instanceof Redis && this.connection.status !== 'ready') return;
    await Promise.all([...this.open.values()].map((q) => q.close()));
  }
}
