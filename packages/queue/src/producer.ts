import { FlowProducer, Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import type { TAuditInputs } from '@aso/contracts';
import { auditFlow } from './audit-flow';
import { JOBS, type TJobData, type TJobName, type TQueueName } from './catalog';

/**
 * Every producer-side BullMQ object of a process behind named calls: the queues (for jobs and
 * reads), the audit flow and the job schedulers; nothing outside `@aso/queue` builds one.
 * Queues are opened on first use, so a gateway that starts while Redis is down opens nothing
 * until a call needs Redis.
 */
export class Producers {
  private readonly open = new Map<TQueueName, Queue>();
  private flows: FlowProducer | null = null;
  /** The schedulers this process owns, by id: re-created by {@link rescheduleAll}. */
  private readonly schedulers = new Map<string, () => Promise<unknown>>();

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
   * Validates each payload against the catalog and adds the jobs `name` in one round trip
   * (BullMQ `addBulk`) with the catalog's options merged with each item's `opts`. Throws a
   * ZodError on bad data (nothing is added then).
   */
  async addMany<N extends TJobName>(
    name: N,
    items: ReadonlyArray<{ data: TJobData<N>; opts?: JobsOptions }>,
  ): Promise<void> {
    if (items.length === 0) return;
    const def = JOBS[name];
    const jobs = items.map((item) => ({
      name,
      data: def.schema.parse(item.data) as TJobData<N>,
      opts: { ...def.options, ...item.opts },
    }));
    await this.queue(def.queue).addBulk(jobs);
  }

  /**
   * Adds the BullMQ flow of audit `auditId` ({@link auditFlow}: the `analysis` parent and one
   * `scrape` child per app, deterministic ids, so adding an audit that still has its jobs adds
   * nothing). Rejects when Redis refuses the flow.
   */
  async addAuditFlow(auditId: string, inputs: TAuditInputs): Promise<void> {
    if (!this.flows) {
      this.flows = new FlowProducer({ connection: this.connection, prefix: this.prefix });
      this.flows.on('error', () => undefined);
    }
    await this.flows.add(auditFlow(auditId, inputs));
  }

  /**
   * Creates or updates the job scheduler `schedulerId` that adds job `name` (with `data` and
   * the catalog's options) every `everyMs` ms. Idempotent across replicas and reconnects: the
   * same id is one scheduler (BullMQ job schedulers), an upsert leaves a live one as it is.
   */
  async scheduleEvery<N extends TJobName>(
    schedulerId: string,
    name: N,
    data: TJobData<N>,
    everyMs: number,
  ): Promise<void> {
    const def = JOBS[name];
    const payload = def.schema.parse(data) as TJobData<N>;
    const upsert = () =>
      this.queue(def.queue).upsertJobScheduler(
        schedulerId,
        { every: everyMs },
        { name, data: payload, opts: def.options },
      );
    this.schedulers.set(schedulerId, upsert);
    await upsert();
  }

  /**
   * Upserts again every scheduler made by {@link scheduleEvery} in this process: a Redis that
   * came back empty (restarted without persistence, or failed over to a replica that had not
   * caught up) has lost them, and the process that owns a scheduler is the one to re-create
   * it. A scheduler that survived is left as it is. Returns how many were upserted.
   */
  async rescheduleAll(): Promise<number> {
    await Promise.all([...this.schedulers.values()].map((upsert) => upsert()));
    return this.schedulers.size;
  }

  /** Closes every opened queue and the flow producer (see {@link closeQuietly}). */
  async close(): Promise<void> {
    await Promise.all([
      ...[...this.open.values()].map((q) => closeQuietly(q)),
      this.flows ? closeQuietly(this.flows) : undefined,
    ]);
  }
}

/** What {@link closeQuietly} closes: a BullMQ Queue, FlowProducer or QueueEvents. */
export interface TClosableQueueClient {
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
export async function closeQuietly(client: TClosableQueueClient, timeoutMs = 2_000): Promise<void> {
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
