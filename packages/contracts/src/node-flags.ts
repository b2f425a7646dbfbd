/**
 * Node.js flags each service process runs with, wherever it runs: `pnpm start` (scripts/start.ts),
 * the images (Dockerfile.api's CMD, checked against this list by services/api/test/ops-compose.int.test.ts)
 * and the benchmarks' processes (bench/src/harness/bench.system.ts).
 *
 * api, `--max-old-space-size=512` (MB): V8 lets the old generation grow between full
 * collections by a factor that scales with the heap limit, from 1.3 at a 256 MB limit to 4 at
 * 2 GB and above (V8 src/heap/heap-controller.cc, MaxGrowingFactor). With the default limit of
 * a machine with a lot of memory (about 4 GB here) an api holding 50 MB of live objects let
 * its heap swing up to 220 MB under a steady load, and its RSS settle 30 % higher after ten
 * minutes than after the warm-up; with a 512 MB limit (factor at most 1.4, ten times the live
 * heap of the busiest benchmark) the same soak ends within 1 % of its warm-up RSS
 * (docs/BENCHMARKS.md, section Soak). A process that outgrows it exits and is restarted by its
 * supervisor (scripts/supervisor.ts, the container's restart policy).
 *
 * csv-merge, `--max-semi-space-size=4 --max-old-space-size=512` (MB): the worker holds a merge's
 * two files and its merged days while its parse threads hold their own heaps; with V8's
 * defaults its peak RSS over a merge of two 20 MB exports was 457-480 MB, with these 342-397 MB
 * (target 400 MB, docs/BENCHMARKS.md, section CSV merge), the merge 0.2 s slower. 512 MB of old
 * generation is several times what four merges of the largest accepted files hold at once.
 */
const SERVICE_NODE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  api: ['--max-old-space-size=512'],
  'csv-merge': ['--max-semi-space-size=4', '--max-old-space-size=512'],
};

/** The flags of `service` (none for a service not listed). */
export function nodeFlagsOf(service: string): readonly string[] {
  return SERVICE_NODE_FLAGS[service] ?? [];
}
