import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { restartDelayMs, Supervisor } from './supervisor';

describe('restart backoff', () => {
  it('doubles from 1 s per crash in a row, up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe('Supervisor', () => {
  it('restarts a process that was killed, says so, and restarts none after stop()', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'supervisor-'));
    const script = join(dir, 'serve.mjs');
    // Stays up until killed.
    writeFileSync(script, "console.log('up', process.pid);\nsetInterval(() => undefined, 1000);\n");
    let text = '';
    const supervisor = new Supervisor({ write: (t) => void (text += t) });
    supervisor.add({
      name: 'svc',
      command: process.execPath,
      args: [script],
      cwd: dir,
      env: {},
    });
    try {
      await vi.waitUntil(() => text.includes('up '), { timeout: 10_000 });
      const first = supervisor.pid('svc');
      expect(first).toBeGreaterThan(0);
      process.kill(first!, 'SIGKILL');
      await vi.waitUntil(() => supervisor.pid('svc') !== null && supervisor.pid('svc') !== first, {
        timeout: 10_000,
      });
      const plain = text.replaceAll('\u001b[0m', '');
      expect(plain).toMatch(
        /\[svc\s*\] exited \(SIGKILL\) after \d+\.\d s; restarting in 1 s \(restart 1\)/,
      );
      expect(supervisor.restarts('svc')).toBe(1);
      await vi.waitUntil(() => text.split('up ').length === 3, { timeout: 10_000 });
    } finally {
      await supervisor.stop(2_000);
    }
    expect(supervisor.pid('svc')).toBeNull();
    expect(supervisor.restarts('svc')).toBe(1);
  });
});
