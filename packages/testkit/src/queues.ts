import {
  createRedis,
  openQueueEvents,
  Producers,
  type QueueEvents,
  type TQueueName,
} from '@aso/queue';

/** The queue layer as a test holds it: producers and QueueEvents on the test's prefix. */
export interface TTestQueues {
  /** Producers on a connection of the test's own (jobs, flows, queue reads). */
  producers: Producers;
  /** A QueueEvents on `queue` (opened once per queue, listening when it resolves). */
  events(queue: TQueueName): Promise<QueueEvents>;
  /** Closes the QueueEvents, the producers and the connection. */
  close(): Promise<void>;
}

/**
 * Opens the queue layer of `@aso/queue` for a test on `redis` (the fixture's url and prefix),
 * so tests add, read and wait for jobs through the same calls as the product.
 */
export function openTestQueues(redis: { url: string; prefix: string }): TTestQueues {
  const connection = createRedis(redis.url, { role: 'worker', name: 'test:queues' });
  const producers = new Producers(connection, redis.prefix);
  const opened = new Map<TQueueName, Promise<QueueEvents>>();
  return {
    producers,
    events(queue) {
      let events = opened.get(queue);
      if (!events) {
        events = openQueueEvents(queue, { target: redis.url, prefix: redis.prefix });
        opened.set(queue, events);
      }
      return events;
    },
    async close() {
      await Promise.all([...opened.values()].map(async (e) => (await e).close()));
      await producers.close();
      connection.disconnect();
    },
  };
}
