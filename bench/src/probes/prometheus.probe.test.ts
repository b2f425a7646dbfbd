import { describe, expect, it } from 'vitest';
import { metricValue } from './prometheus.probe';

// Constructed exposition in the text format of prom-client.
const text = `# HELP nodejs_eventloop_lag_p99_seconds The 99th percentile of the recorded event loop delays.
# TYPE nodejs_eventloop_lag_p99_seconds gauge
nodejs_eventloop_lag_p99_seconds{service="api"} 0.012345
# TYPE aso_sse_open_streams gauge
aso_sse_open_streams{service="api"} 2000
aso_sse_open_streams_total 7
`;

describe('metricValue', () => {
  it('reads a sample with labels, by exact name', () => {
    expect(metricValue(text, 'nodejs_eventloop_lag_p99_seconds')).toBe(0.012345);
    expect(metricValue(text, 'aso_sse_open_streams')).toBe(2000);
  });

  it('gives null for a metric that is absent', () => {
    expect(metricValue(text, 'aso_sse_open')).toBeNull();
  });
});
