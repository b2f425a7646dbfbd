import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A process to watch: its name in tables and its pid. */
export interface TSampledProcess {
  name: string;
  pid: number;
}

/** What {@link ProcessSampler} saw of one process over its window. */
export interface TProcessUsage {
  name: string;
  pid: number;
  /** Highest resident set size seen (MB = 10^6 bytes). */
  peakRssMb: number;
  /** CPU time used in the window (user + system, seconds). */
  cpuSeconds: number;
  /** Average CPU over the window, percent of one core (100 = one core busy). */
  avgCpuPct: number;
  /** Highest CPU over one sampling interval, percent of one core. */
  peakCpuPct: number;
}

let clockTicks: number | null = null;

/** Kernel clock ticks per second (`getconf CLK_TCK`, 100 on almost every Linux). */
export function clockTicksPerSecond(): number {
  if (clockTicks === null) {
    try {
      clockTicks =
        Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 2_000 }).trim()) ||
        100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * CPU ticks (utime + stime) from the text of `/proc/<pid>/stat`. The command name (field 2) is
 * in parentheses and may hold spaces, so fields are counted after the last ')'.
 * @throws Error when the text is not a stat line.
 */
export function parseStatTicks(stat: string): number {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime))
    throw new Error(`not a /proc stat line: ${stat.slice(0, 80)}`);
  return utime + stime;
}

/** Resident set size in bytes from the text of `/proc/<pid>/status` (`VmRSS: <n> kB`); null when absent. */
export function parseStatusRssBytes(status: string): number | null {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : null;
}

interface TState {
  target: TSampledProcess;
  firstTicks: number | null;
  lastTicks: number | null;
  lastAt: number;
  peakRss: number;
  peakCpu: number;
}

/**
 * Samples RSS and CPU of processes from /proc every `intervalMs` (Linux only). A process that
 * exits keeps the figures seen so far.
 */
export class ProcessSampler {
  private readonly states: TState[];
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  private stoppedAt = 0;

  constructor(
    targets: readonly TSampledProcess[],
    private readonly intervalMs = 250,
  ) {
    this.states = targets.map((target) => ({
      target,
      firstTicks: null,
      lastTicks: null,
      lastAt: 0,
      peakRss: 0,
      peakCpu: 0,
    }));
  }

  private sample(): void {
    const now = performance.now();
    const hz = clockTicksPerSecond();
    for (const s of this.states) {
      try {
        const ticks = parseStatTicks(readFileSync(`/proc/${s.target.pid}/stat`, 'utf8'));
        const rss = parseStatusRssBytes(readFileSync(`/proc/${s.target.pid}/status`, 'utf8')) ?? 0;
        if (s.lastTicks !== null && now > s.lastAt) {
          const pct = ((ticks - s.lastTicks) / hz / ((now - s.lastAt) / 1000)) * 100;
          s.peakCpu = Math.max(s.peakCpu, pct);
        }
        s.firstTicks ??= ticks;
        s.lastTicks = ticks;
        s.lastAt = now;
        s.peakRss = Math.max(s.peakRss, rss);
      } catch {
        // the process is gone: keep what was seen
      }
    }
  }

  /** Starts sampling (one sample at once). */
  start(): this {
    this.startedAt = performance.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    return this;
  }

  /** Stops sampling (one last sample) and returns the figures per process. */
  stop(): TProcessUsage[] {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    this.stoppedAt = performance.now();
    const seconds = Math.max(0.001, (this.stoppedAt - this.startedAt) / 1000);
    const hz = clockTicksPerSecond();
    return this.states.map((s) => {
      const cpuSeconds =
        s.firstTicks !== null && s.lastTicks !== null ? (s.lastTicks - s.firstTicks) / hz : 0;
      return {
        name: s.target.name,
        pid: s.target.pid,
        peakRssMb: s.peakRss / 1e6,
        cpuSeconds,
        avgCpuPct: (cpuSeconds / seconds) * 100,
        peakCpuPct: s.peakCpu,
      };
    });
  }
}
