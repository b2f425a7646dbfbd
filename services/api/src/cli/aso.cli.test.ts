import { describe, expect, it } from 'vitest';
import { abbreviateCount, formatStep, runCli } from './aso.cli';
import { parseCliEnv } from './env';

describe('CLI helpers', () => {
  it('abbreviates review counts: K from 1,000, M from 1,000,000 (spec section 9)', () => {
    expect(abbreviateCount('999')).toBe('999');
    expect(abbreviateCount('1000')).toBe('1K');
    expect(abbreviateCount('1289')).toBe('1.3K');
    expect(abbreviateCount('1000000')).toBe('1M');
    expect(abbreviateCount('36130486')).toBe('36.1M');
  });
  it('formats a step line', () => {
    expect(
      formatStep({
        step_id: 'scrape',
        status: 'in_progress',
        message: 'Scraped 1 of 3 apps',
        progress_pct: 33,
        started_at: null,
        ended_at: null,
      }),
    ).toBe(`… ${'scrape'.padEnd(24)} Scraped 1 of 3 apps (33%)`);
  });
  it('parses its environment with defaults', () => {
    expect(parseCliEnv({})).toMatchObject({
      ASO_API_URL: 'http://127.0.0.1:3000',
      ASO_HTTP_TIMEOUT_MS: 30_000,
    });
    expect(() => parseCliEnv({ ASO_API_URL: 'nope' })).toThrow(/ASO_API_URL/);
  });
  it('refuses bad usage with exit code 2 before any call', async () => {
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => err.push(t) };
    const env = parseCliEnv({});
    expect(await runCli([], env, io)).toBe(2);
    expect(
      await runCli(
        [
          'audit',
          'u',
          '--competitor',
          'a',
          '--competitor',
          'b',
          '--competitor',
          'c',
          '--competitor',
          'd',
        ],
        env,
        io,
      ),
    ).toBe(2);
    expect(err.at(-1)).toMatch(/At most 3 competitors/);
    expect(await runCli(['audit', 'u', '--nope'], env, io)).toBe(2);
  });
  it('names the missing sign-in variables', async () => {
    const err: string[] = [];
    expect(
      await runCli(['audit', 'https://apps.apple.com/us/app/id1'], parseCliEnv({}), {
        out: () => undefined,
        err: (t) => err.push(t),
      }),
    ).toBe(1);
    expect(err.at(-1)).toMatch(/ASO_EMAIL and ASO_ACCESS_CODE/);
  });
});
