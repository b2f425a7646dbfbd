import { describe, expect, it } from 'vitest';
import {
  describeProfile,
  packageOf,
  summarizeProfile,
  type TCpuProfile,
} from './cpu-profile.summary';

describe('packageOf', () => {
  it('names npm packages in the pnpm layout, workspace folders, Node internals and V8 frames', () => {
    expect(
      packageOf(
        'file:///r/node_modules/.pnpm/pino@10.4.0/node_modules/pino/lib/tools.js',
        'asJson',
      ),
    ).toBe('pino');
    expect(
      packageOf(
        'file:///r/node_modules/.pnpm/@fastify+x@1/node_modules/@fastify/multipart/index.js',
        'f',
      ),
    ).toBe('@fastify/multipart');
    expect(
      packageOf('file:///work/main/services/api/src/services/progress.stream.ts', 'write'),
    ).toBe('services/api');
    expect(packageOf('node:internal/streams/writable', 'write')).toBe('node:internal');
    expect(packageOf('', '(garbage collector)')).toBe('(garbage collector)');
  });
});

describe('summarizeProfile', () => {
  // Constructed profile: 10 idle samples, 6 in pino, 3 in the api, 1 in GC over 20 ms.
  const profile: TCpuProfile = {
    startTime: 0,
    endTime: 20_000,
    nodes: [
      { id: 1, hitCount: 10, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
      {
        id: 2,
        hitCount: 6,
        callFrame: {
          functionName: 'asJson',
          url: 'file:///r/node_modules/pino/lib/tools.js',
          lineNumber: 9,
        },
      },
      {
        id: 3,
        hitCount: 3,
        callFrame: { functionName: 'write', url: 'file:///w/services/api/src/x.ts', lineNumber: 0 },
      },
      {
        id: 4,
        hitCount: 1,
        callFrame: { functionName: '(garbage collector)', url: '', lineNumber: -1 },
      },
    ],
  };

  it('gives shares of the busy samples by package and function, and the busy time', () => {
    const s = summarizeProfile(profile);
    expect(s.busyMs).toBe(10);
    expect(s.byPackage).toEqual([
      { name: 'pino', pct: 60 },
      { name: 'services/api', pct: 30 },
      { name: '(garbage collector)', pct: 10 },
    ]);
    expect(s.byFunction[0]).toEqual({ name: 'asJson (pino/tools.js:10)', pct: 60 });
    expect(describeProfile('api', s)).toMatch(
      /^api CPU profile \(0\.0 s busy\): by package pino 60 %, services\/api 30 %/,
    );
  });
});
