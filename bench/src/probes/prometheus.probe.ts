/**
 * Reads the gateway's Prometheus metrics (`GET /metrics`, text format 0.0.4, served by the api's
 * metrics plugin with prom-client) as a cross-check of the benchmark's own probes.
 */

/**
 * The value of the first sample of metric `name` in a Prometheus text exposition (any labels);
 * null when the metric is absent.
 */
export function metricValue(exposition: string, name: string): number | null {
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m && m[1] === name) {
      const v = Number(m[3]);
      return Number.isNaN(v) ? null : v;
    }
  }
  return null;
}

/** The exposition of `<baseUrl>/metrics`, or null when the gateway serves none (404) or does not answer in 10 s. */
export async function scrapeMetrics(baseUrl: string): Promise<string | null> {
  try {
    const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    return res.ok ? text : null;
  } catch {
    return null;
  }
}
