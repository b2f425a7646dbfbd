import type { BenchSystem } from './harness/bench.system';
import type { TBenchName, TBenchResult } from './bench.types';

/** Sizes of every benchmark: `FULL_SIZES` for `pnpm bench`, `SMOKE_SIZES` for the CI smoke test. */
export interface TBenchSizes {
  audit: { runs: number; delaysMs: number[] };
  throughput: {
    audits: number;
    runs: number;
    /** Store delay per answer (ms). */
    delayMs: number;
    /** Users the audits are spread over (round robin). */
    users: number;
    /** Scraper process counts to compare, e.g. [1, 2]. */
    scraperProcesses: number[];
    /** Runs of the single-audit baseline per configuration. */
    baselineRuns: number;
  };
  sse: { clients: number; audits: number; runs: number; delayMs: number; baselineRuns: number };
  /**
   * Export sizes to merge, smallest first (each of the two files is generated up to that many
   * bytes; or exactly `rows` rows when given, for the smoke test).
   */
  csv: {
    bytes: number[];
    rows?: number;
    runs: number;
    /**
     * Real-size merges: two exports of `realYears` years of daily rows, uploaded alone
     * `realRuns` times, then by `realUsers` users at once `realRounds` times.
     */
    realYears: number;
    realRuns: number;
    realUsers: number;
    realRounds: number;
  };
  /**
   * Chart data and reports at `connections`; the page-load reads (audit, lists, check-access)
   * at `pageConnections`; each group with `/healthz` at its connections as the baseline.
   */
  reads: {
    years: number;
    durationS: number;
    connections: number;
    pageConnections: number;
    runs: number;
  };
  web: { runs: number };
  /** Mixed load: users in a loop, warm-up and measured seconds, RSS sampling interval (s). */
  soak: { users: number; warmupS: number; durationS: number; sampleEveryS: number };
  /** Rounds of the fault scenarios (each round runs every scenario once). */
  faults: { runs: number };
  /** Watched listings read by one scheduler round, and repeated rounds. */
  watch: { apps: number; runs: number };
  /** Days of daily App Store Connect reports imported for one app. */
  asc: { days: number };
  /**
   * Tracked (term, storefront) pairs read by one keyword round, and the search window the
   * rate is counted over (ms; shortened from a minute so the round takes minutes).
   */
  keywords: { pairs: number; windowMs: number };
  /** Starts of `pnpm start --offline` on the built tree after the fresh clone's first. */
  start: { runs: number };
  /** Audits queued then run to measure Redis per job; keyword reads stored to measure PostgreSQL. */
  storage: { audits: number; keywordReads: number };
  /** Finished audits printed to PDF, two at a time (the render worker's CONCURRENCY). */
  render: { pdfs: number };
}

/** Target sizes: 4-app audits, 100 concurrent audits, 2,000 SSE clients, 2 x 20 MB, 5 years. */
export const FULL_SIZES: TBenchSizes = {
  audit: { runs: 5, delaysMs: [0, 300] },
  throughput: {
    audits: 100,
    runs: 3,
    delayMs: 300,
    users: 10,
    scraperProcesses: [1, 2],
    baselineRuns: 2,
  },
  sse: { clients: 2000, audits: 8, runs: 3, delayMs: 300, baselineRuns: 3 },
  csv: {
    bytes: [1_000_000, 5_000_000, 20_000_000],
    runs: 3,
    realYears: 10,
    realRuns: 20,
    realUsers: 10,
    realRounds: 3,
  },
  reads: { years: 5, durationS: 10, connections: 10, pageConnections: 32, runs: 3 },
  web: { runs: 1 },
  soak: { users: 8, warmupS: 60, durationS: 600, sampleEveryS: 5 },
  faults: { runs: 3 },
  watch: { apps: 1000, runs: 3 },
  asc: { days: 730 },
  keywords: { pairs: 1000, windowMs: 3000 },
  start: { runs: 3 },
  storage: { audits: 200, keywordReads: 5_000 },
  render: { pdfs: 12 },
};

/** Tiny sizes that keep every benchmark working (CI smoke test, `--quick`). */
export const SMOKE_SIZES: TBenchSizes = {
  audit: { runs: 1, delaysMs: [0] },
  throughput: { audits: 2, runs: 1, delayMs: 0, users: 2, scraperProcesses: [1], baselineRuns: 1 },
  sse: { clients: 20, audits: 2, runs: 1, delayMs: 0, baselineRuns: 1 },
  csv: { bytes: [], rows: 200, runs: 1, realYears: 1, realRuns: 2, realUsers: 2, realRounds: 1 },
  reads: { years: 1, durationS: 1, connections: 2, pageConnections: 2, runs: 1 },
  web: { runs: 1 },
  soak: { users: 2, warmupS: 1, durationS: 3, sampleEveryS: 1 },
  faults: { runs: 1 },
  watch: { apps: 5, runs: 1 },
  asc: { days: 10 },
  keywords: { pairs: 8, windowMs: 400 },
  start: { runs: 1 },
  storage: { audits: 3, keywordReads: 10 },
  render: { pdfs: 2 },
};

/** What a benchmark gets to run with. */
export interface TBenchContext {
  sizes: TBenchSizes;
  /** Temporary folder for logs, generated files, builds and profiles (removed at the end unless kept). */
  workDir: string;
  /** Write V8 CPU profiles of the services (`--profile`). */
  cpuProfile: boolean;
  /** Write V8 heap snapshots of the api where a benchmark takes them (`--heap-snapshots`). */
  heapSnapshots: boolean;
  /** A built web app to measure instead of building one (`--web-dist`). */
  webDistDir: string | null;
  /** Progress lines for the person running the benchmark. */
  log(message: string): void;
  /**
   * Registers something the benchmark started itself (e.g. a whole `FaultSystem`) so that
   * Ctrl-C closes it too; answers the function that closes it and forgets it.
   */
  adopt(resource: { close(): Promise<void> }): () => Promise<void>;
  /**
   * The system (database, Redis prefix, replay server, api) for a benchmark, with the replay
   * server set to `storeDelayMs`. Closed by the runner after the benchmark (or at the very end
   * when systems are shared, as in the smoke test). Workers are the benchmark's to start and stop.
   */
  system(label: string, storeDelayMs: number): Promise<BenchSystem>;
}

/** One benchmark. */
export interface TBenchmark {
  name: TBenchName;
  title: string;
  run(ctx: TBenchContext): Promise<TBenchResult>;
}
