import { describe, expect, it } from 'vitest';
import { Counter } from 'prom-client';
import { createServiceMetrics, METRIC_PREFIX, MEASURED_JOB_STATES } from '@aso/queue';

/** The value of `name{labels}` in a Prometheus text exposition (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  const want = Object.entries(labels);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (want.every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.split(' ').at(-1));
  }
  return null;
}

describe('createServiceMetrics', () => {
  it('serves the Prometheus text format with the service label on every sample and Node process metrics', async () => {
    const metrics = createServiceMetrics({ service: 'unit' });
    const [type, body] = await metrics.render();
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(body).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(body).toMatch(/^nodejs_heap_size_used_bytes\{service="unit"\} \d+/m);
    for (const line of body.split('\n').filter((l) => l && !l.startsWith('#'))) {
      expect(line).toContain('service="unit"');
    }
  });

  it('declares the job and queue metrics of docs/OPERATIONS.md with their types', async () => {
    const [, body] = await createServiceMetrics({
      service: 'unit',
      defaultMetrics: false,
    }).render();
    expect(body).toContain(`# TYPE ${METRIC_PREFIX}jobs_completed_total counter`);
    expect(body).toContain(`# TYPE ${METRIC_PREFIX}jobs_failed_total counter`);
    expect(body).toContain(`# TYPE ${METRIC_PREFIX}job_duration_seconds histogram`);
    expect(body).toContain(`# TYPE ${METRIC_PREFIX}queue_jobs gauge`);
    expect(MEASURED_JOB_STATES).toEqual(['waiting', 'prioritized', 'active', 'delayed', 'failed']);
    expect(body).not.toContain('process_cpu_user_seconds_total');
  });

  it('keeps each service in its own registry: two services in one process do not share counters', async () => {
    const a = createServiceMetrics({ service: 'a', defaultMetrics: false });
    const b = createServiceMetrics({ service: 'b', defaultMetrics: false });
    const own = new Counter({ name: 'unit_things_total', help: 'things', registers: [a.registry] });
    own.inc(3);
    const [, bodyA] = await a.render();
    const [, bodyB] = await b.render();
    expect(sample(bodyA, 'unit_things_total', { service: 'a' })).toBe(3);
    expect(bodyB).not.toContain('unit_things_total');
  });
});
