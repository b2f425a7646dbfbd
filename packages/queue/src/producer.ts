import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
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

  /** Closes every opened queue (see {@link closeQuietly}). */
  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((q) => closeQuietly(q)));
  }
}

/** What {@link closeQuietly} closes: a BullMQ Queue, FlowProducer or QueueEvents. */
export interface ClosableQueueClient {
  waitUntilReady(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Closes a BullMQ client that shares a connection owned by the caller, leaving no rejection
 * behind. BullMQ reads the server version (INFO) when it opens; closing drops its listeners,
 * so an INFO still in flight when the owner then disconnects would reject into an 'error'
 * emitted with no listener: an unhandled rejection. So the client is closed only once it
 * finished opening (within `timeoutMs`); one that did not (Redis down) is left open with its
 * own error listener, and settles quietly when the owner disconnects. Never rejects.
 */
export async function closeQuietly(client: ClosableQueueClient, timeoutMs = 2_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>(
    (r) => (timer = setTimeout(() => r('timeout'), timeoutMs)),
  );
  try {
    const ready = client.waitUntilReady().then(
      () => 'ready' as const,
      () => 'failed' as const,
    );
    if ((await Promise.race([ready, timeout])) !== 'ready') return;
    await Promise.race([client.close().catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
