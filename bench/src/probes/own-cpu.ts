/**
 * CPU this process has used since `start` (a `process.cpuUsage()` reading): user and system
 * time together, in ms.
 */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
