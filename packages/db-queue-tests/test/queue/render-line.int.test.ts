/**
 * Per-user render lines on a real Redis (docs/product.md#pdf-reports): one turn per user, the
 * rest lined in order, bounded; and, with a first-in-first-out queue standing for BullMQ's
 * waiting list, users take turns whatever one of them asked for.
 */
import { afterAll, describe, expect } from 'vitest';
import { it } from '@aso/testkit/vitest';
import {
  advanceRenderLine,
  claimRenderTurn,
  createRedis,
  renderLineKeys,
  withdrawFromRenderLine,
  type TRenderPdfJob,
} from '@aso/queue';

const conns: ReturnType<typeof createRedis>[] = [];
afterAll(() => conns.forEach((c) => c.disconnect()));

const USER_A = '00000000-0000-4000-8000-00000000000a';
const USER_B = '00000000-0000-4000-8000-00000000000b';

/** Render `n` of `userId` (a subject id of its own). */
const render = (userId: string, n: number): TRenderPdfJob => ({
  kind: 'audit',
  subjectId: `${userId.slice(0, -3)}${String(n).padStart(3, '0')}`,
  userId,
  version: 'f'.repeat(32),
});

describe('render lines', () => {
  it('gives a user one turn, lines the rest in order, bounded, and hands the turn on', async ({
    redis,
  }) => {
    const conn = createRedis(redis.url, { role: 'producer', name: 'test:render-line' });
    conns.push(conn);
    const prefix = `${redis.prefix}-claims`;
    const [a1, a2, a3, a4] = [1, 2, 3, 4].map((n) => render(USER_A, n)) as [
      TRenderPdfJob,
      TRenderPdfJob,
      TRenderPdfJob,
      TRenderPdfJob,
    ];

    expect(await claimRenderTurn(conn, prefix, a1, 2)).toEqual({ status: 'run' });
    // The same render again shares the turn; others wait in order.
    expect(await claimRenderTurn(conn, prefix, a1, 2)).toEqual({ status: 'run' });
    expect(await claimRenderTurn(conn, prefix, a2, 2)).toEqual({ status: 'lined', position: 0 });
    expect(await claimRenderTurn(conn, prefix, a3, 2)).toEqual({ status: 'lined', position: 1 });
    expect(await claimRenderTurn(conn, prefix, a2, 2)).toEqual({ status: 'lined', position: 0 });
    expect(await claimRenderTurn(conn, prefix, a4, 2)).toEqual({ status: 'full', lined: 2 });
    // Another user has a turn of their own.
    expect(await claimRenderTurn(conn, prefix, render(USER_B, 1), 2)).toEqual({ status: 'run' });

    // Only the current render hands the turn on, once.
    expect(await advanceRenderLine(conn, prefix, a3)).toBeUndefined();
    expect(await advanceRenderLine(conn, prefix, a1)).toEqual(a2);
    expect(await advanceRenderLine(conn, prefix, a1)).toBeUndefined();
    expect(await claimRenderTurn(conn, prefix, a2, 2)).toEqual({ status: 'run' });
    expect(await claimRenderTurn(conn, prefix, a4, 2)).toEqual({ status: 'lined', position: 1 });
    // A render nobody waits for any more leaves the line.
    expect(await withdrawFromRenderLine(conn, prefix, a3)).toBe(true);
    expect(await withdrawFromRenderLine(conn, prefix, a3)).toBe(false);
    expect(await advanceRenderLine(conn, prefix, a2)).toEqual(a4);
    expect(await advanceRenderLine(conn, prefix, a4)).toBeUndefined();
    // The line is empty and the turn free: the keys are gone.
    const keys = renderLineKeys(prefix, USER_A);
    expect(await conn.exists(keys.current, keys.waiting)).toBe(0);
    expect(await claimRenderTurn(conn, prefix, a3, 2)).toEqual({ status: 'run' });
    expect(await conn.pttl(keys.current)).toBeGreaterThan(0);
  });

  it("serves B's first render after at most one of A's twelve", async ({ redis }) => {
    const conn = createRedis(redis.url, { role: 'producer', name: 'test:render-line' });
    conns.push(conn);
    const prefix = `${redis.prefix}-order`;
    // Stands for BullMQ's waiting list of the render queue (first in, first out).
    const queue: TRenderPdfJob[] = [];
    const ask = async (data: TRenderPdfJob) => {
      if ((await claimRenderTurn(conn, prefix, data, 20)).status === 'run') queue.push(data);
    };
    for (let n = 1; n <= 12; n++) await ask(render(USER_A, n));
    expect(queue).toHaveLength(1);
    // A's first render starts; then B asks for one.
    const started: TRenderPdfJob[] = [queue.shift()!];
    await ask(render(USER_B, 1));
    // The worker: each render that ends hands its user's turn on, then takes the oldest job.
    while (started.length < 13) {
      const next = await advanceRenderLine(conn, prefix, started.at(-1)!);
      if (next) queue.push(next);
      const job = queue.shift();
      if (!job) throw new Error(`nothing queued after ${started.length} renders`);
      started.push(job);
    }
    const users = started.map((d) => (d.userId === USER_A ? 'A' : 'B')).join('');
    expect(users).toBe('ABAAAAAAAAAAA');
    // A's renders in the order they were asked for.
    expect(started.filter((d) => d.userId === USER_A)).toEqual(
      Array.from({ length: 12 }, (_, i) => render(USER_A, i + 1)),
    );
  });
});
