import { describe, expect, it } from 'vitest';
import type { TBenchResult } from '../bench.types';
import {
  figureStats,
  readStoredResults,
  renderConsoleTable,
  renderMarkdown,
  type TMachine,
  type TStoredResults,
} from './markdown.writer';

const machine: TMachine = {
  cpuModel: 'Test CPU',
  cores: 2,
  memoryGb: 8,
  node: 'v20.19.0',
  kernel: 'Linux 6.1',
  load1: 1.5,
};

// A constructed result: a figure over 3 runs compared with a baseline, a target, a table.
const audit: TBenchResult = {
  name: 'audit',
  title: 'One audit of 4 apps: cold and warm cache',
  startedAt: '2026-01-02T03:04:05.000Z',
  durationMs: 42_000,
  runs: 3,
  setup: ['Audit of 4 recorded apps -- store delay 0 ms'],
  figures: [
    {
      id: 'warm-0.wall',
      label: 'warm cache: POST -> complete',
      unit: 's',
      samples: [1.2, 0.8, 1.0],
      baseline: { label: 'progress estimate', samples: [220] },
    },
  ],
  tables: [{ title: 'Steps', columns: ['Step', 'ms'], rows: [['scrape | fetch', '12']] }],
  targets: [{ target: 'Warm audit under 2 s', measured: 'median 1.00 s', met: true }],
  findings: ['nothing dominates'],
};

describe('figureStats', () => {
  it('gives the median, the nearest-rank p95 and the ratio to the baseline median', () => {
    expect(figureStats(audit.figures[0]!)).toEqual({
      median: 1.0,
      p95: 1.2,
      baselineMedian: 220,
      ratio: 1 / 220,
    });
  });
});

describe('renderMarkdown', () => {
  const stored: TStoredResults = {
    audit: { ...audit, machine },
    csv: {
      name: 'csv',
      title: 'CSV merge',
      startedAt: '2026-01-02T04:00:00.000Z',
      failed: '504: Merging the files took too long',
      machine,
    },
  };
  const md = renderMarkdown(stored, '## Analysis\n\nWhat dominates.');

  it('states the machine, the date, the targets, each figure with median, p95 and ratio', () => {
    expect(md).toContain(
      '2 cores (Test CPU), 8 GiB memory, Node v20.19.0, Linux 6.1; load average 1.5 at the start',
    );
    expect(md).toContain('Run 2026-01-02 03:04 UTC');
    expect(md).toContain(
      'Latest run: 2026-01-02 on 2 cores (Test CPU), 8 GiB memory, Node v20.19.0',
    );
    expect(md).toContain('| Warm audit under 2 s | median 1.00 s | met |');
    expect(md).toContain(
      '| warm cache: POST -> complete | 1.00 s | 1.20 s | 3 | progress estimate | 220 s | 0.00455x |',
    );
    expect(md).toContain('| scrape \\| fetch | 12 |');
    expect(md).toContain('**FAILED**: 504: Merging the files took too long');
    expect(md).toContain('## Analysis\n\nWhat dominates.');
  });

  it('embeds the results so that a partial run can keep the other sections, even with "--" in texts', () => {
    expect(md).not.toMatch(/bench-data [^\n]*--[^>]/);
    expect(readStoredResults(md)).toEqual(stored);
    expect(readStoredResults('# no data')).toEqual({});
  });
});

describe('renderConsoleTable', () => {
  it('lists figures, targets and failures', () => {
    const text = renderConsoleTable([
      audit,
      { name: 'csv', title: 'CSV merge', startedAt: '', failed: 'merge timed out\nmore' },
    ]);
    expect(text).toMatch(
      /audit\s+warm cache: POST -> complete\s+1\.00 s\s+1\.20 s\s+220 s\s+0\.00455x/,
    );
    expect(text).toContain('TARGET met: Warm audit under 2 s');
    expect(text).toContain('FAILED: merge timed out');
  });
});
