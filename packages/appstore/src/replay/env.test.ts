import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES_DIR, parseReplayEnv } from './env';

describe('replay server environment', () => {
  it('has defaults for one machine', () => {
    expect(parseReplayEnv({})).toEqual({
      STORE_REPLAY_PORT: 4100,
      STORE_REPLAY_HOST: '127.0.0.1',
      FIXTURES_DIR: DEFAULT_FIXTURES_DIR,
      STORE_REPLAY_DELAY_MS: 0,
    });
    expect(path.basename(DEFAULT_FIXTURES_DIR)).toBe('fixtures');
    expect(path.basename(path.dirname(DEFAULT_FIXTURES_DIR))).toBe('shared');
  });

  it('reads the variables and treats empty ones as unset', () => {
    expect(
      parseReplayEnv({
        STORE_REPLAY_PORT: '4105',
        FIXTURES_DIR: '/data/fixtures',
        STORE_REPLAY_DELAY_MS: '',
        STORE_REPLAY_HOST: '::1',
      }),
    ).toMatchObject({
      STORE_REPLAY_PORT: 4105,
      FIXTURES_DIR: '/data/fixtures',
      STORE_REPLAY_DELAY_MS: 0,
      STORE_REPLAY_HOST: '::1',
    });
  });

  it('names a bad variable', () => {
    expect(() => parseReplayEnv({ STORE_REPLAY_PORT: '70000' })).toThrow(/STORE_REPLAY_PORT/);
    expect(() => parseReplayEnv({ STORE_REPLAY_DELAY_MS: '-1' })).toThrow(/STORE_REPLAY_DELAY_MS/);
  });
});
