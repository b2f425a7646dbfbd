import { describe, expect, it } from 'vitest';
import { parseReadyLine } from './start.bench';

describe('parseReadyLine', () => {
  it("reads the times of pnpm start's ready line", () => {
    const out =
      'api | listening\n\n  ASO audit is running: http://localhost:4281\n  ready in 12.3 s (build 4.1 s, database 0.6 s, processes 7.6 s)\n';
    expect(parseReadyLine(out)).toEqual({ total: 12.3, build: 4.1, database: 0.6, processes: 7.6 });
  });

  it('answers null before the line is printed', () => {
    expect(parseReadyLine('api | listening\n')).toBeNull();
  });
});
