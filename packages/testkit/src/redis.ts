import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** Redis URL tests use: `REDIS_URL` or local Redis. */
export function redisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** A unique BullMQ/Redis key prefix for one test file: `test-<uuid>`. */
export function newPrefix(): string {
  return `test-${randomUUID()}`;
}

/** Deletes every key under `prefix` (SCAN + UNLINK). */
export async function deletePrefix(prefix: string): Promise<void> {
  const r = new Redis(redisUrl(), { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await r.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}
