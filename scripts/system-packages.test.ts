import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onPath, planSystemPackages, TEST_SYSTEM_PACKAGES } from './system-packages';

const [chromium, wrk] = TEST_SYSTEM_PACKAGES;

describe('the system packages the tests need', () => {
  it('does nothing when every program is there', () => {
    expect(planSystemPackages([], { root: false, apt: false })).toEqual({ action: 'none' });
  });

  it('installs the missing ones as root with apt-get', () => {
    expect(planSystemPackages([chromium!, wrk!], { root: true, apt: true })).toEqual({
      action: 'install',
      packages: ['chromium', 'wrk'],
    });
  });

  it('stops with the exact command otherwise', () => {
    expect(planSystemPackages([wrk!], { root: false, apt: true })).toEqual({
      action: 'stop',
      packages: ['wrk'],
      command: 'sudo apt-get update && sudo apt-get install -y wrk',
    });
    expect(planSystemPackages([chromium!], { root: true, apt: false })).toMatchObject({
      action: 'stop',
      command: 'apt-get update && apt-get install -y chromium',
    });
  });

  it('finds executables on PATH only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aso-path-'));
    writeFileSync(join(dir, 'tool'), '#!/bin/sh\n');
    writeFileSync(join(dir, 'data'), '');
    chmodSync(join(dir, 'tool'), 0o755);
    expect(onPath('tool', dir)).toBe(true);
    expect(onPath('data', dir)).toBe(false);
    expect(onPath('tool', '/nonexistent')).toBe(false);
  });
});
