import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../harness/service.process';
import { measureEchartsFloor } from './echarts-floor';

describe('ECharts floor', () => {
  it('bundles the dashboard chart module and the least ECharts, the module above the floor', async () => {
    const { chartModule, registered, floor } = await measureEchartsFloor(
      join(REPO_ROOT, 'apps/web'),
    );
    // ECharts' core and canvas renderer alone are hundreds of KB raw; brotli takes most of it off.
    expect(floor.rawBytes).toBeGreaterThan(200_000);
    expect(floor.brBytes).toBeLessThan(floor.rawBytes / 2);
    // The dashboard registers more components than the floor's line and bar charts on a grid
    // (tooltip, mark lines), and echarts-for-react comes on top of that.
    expect(registered.brBytes).toBeGreaterThan(floor.brBytes);
    expect(registered.rawBytes).toBeGreaterThan(floor.rawBytes);
    expect(chartModule.brBytes).toBeGreaterThan(registered.brBytes);
  }, 60_000);
});
