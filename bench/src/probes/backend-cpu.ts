import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { BenchSystem } from '../harness/bench.system';
import { clockTicksPerSecond, parseStatTicks } from './process.sampler';

/**
 * CPU of this database's PostgreSQL backends while it runs (Linux /proc; the server is shared,
 * so only the backends serving this benchmark's database are counted, each from when it was
 * first seen, or from 0 when it started during the window).
 */
export class BackendCpu {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private starting = true;

  constructor(private readonly system: BenchSystem) {}

  private async sample(): Promise<void> {
    const rows = await sql<{ pid: number }>`
      select pid from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
    `.execute(this.system.database.db);
    for (const { pid } of rows.rows) {
      try {
        const ticks = parseStatTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        if (!this.first.has(pid)) this.first.set(pid, this.starting ? ticks : 0);
        this.last.set(pid, ticks);
      } catch {
        // the backend ended, or PostgreSQL runs elsewhere: keep what was seen
      }
    }
  }

  /** Starts sampling every 250 ms (the first sample is the window's start). */
  async start(): Promise<this> {
    await this.sample();
    this.starting = false;
    this.timer = setInterval(() => void this.sample().catch(() => undefined), 250);
    return this;
  }

  /** Stops and answers the backends' CPU seconds in the window (null when none could be read). */
  async stop(): Promise<number | null> {
    if (this.timer) clearInterval(this.timer);
    await this.sample().catch(() => undefined);
    if (this.last.size === 0) return null;
    let ticks = 0;
    for (const [pid, last] of this.last) ticks += last - (this.first.get(pid) ?? last);
    return ticks / clockTicksPerSecond();
  }
}
