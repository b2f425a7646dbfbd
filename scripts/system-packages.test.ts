import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onPath, planSystemPackages, present, TEST_SYSTEM_PACKAGES } from './system-packages';

const [chromium, wrk, kubectl] = TEST_SYSTEM_PACKAGES;

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
      manual: [],
    });
    expect(planSystemPackages([chromium!], { root: true, apt: false })).toMatchObject({
      action: 'stop',
      command: 'apt-get update && apt-get install -y chromium',
    });
  });

  it('stops naming what to install by hand when Debian has no usable package, even as root', () => {
    const plan = planSystemPackages([wrk!, kubectl!], { root: true, apt: true });
    expect(plan).toMatchObject({
      action: 'stop',
      packages: ['wrk'],
      command: 'apt-get update && apt-get install -y wrk',
    });
    expect(plan.action === 'stop' && plan.manual).toEqual([
      expect.stringMatching(/^kubectl 1\.27 or newer .* or a standalone kustomize 5/),
    ]);
    expect(planSystemPackages([kubectl!], { root: true, apt: true })).toMatchObject({
      action: 'stop',
      packages: [],
      command: null,
    });
  });

  it('takes kustomize for kubectl: either one on PATH will do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aso-path-'));
    expect(present(kubectl!, dir)).toBe(false);
    writeFileSync(join(dir, 'kustomize'), '#!/bin/sh\n');
    chmodSync(join(dir, 'kustomize'), 0o755);
    expect(present(kubectl!, dir)).toBe(true);
    expect(present(wrk!, dir)).toBe(false);
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
