import { describe, expect, it } from 'vitest';
import { chooseTestServices, dockerEndpointCandidates } from './services';

describe('chooseTestServices', () => {
  it('uses the loopback services when the variables are unset and no Docker engine answers (these machines, CI)', () => {
    expect(
      chooseTestServices({
        databaseUrl: undefined,
        redisUrl: undefined,
        dockerAnswers: false,
      }),
    ).toEqual({
      postgres: 'loopback',
      redis: 'loopback',
      lines: [
        'PostgreSQL: loopback (DATABASE_URL unset, no Docker engine answered)',
        'Redis: loopback (REDIS_URL unset, no Docker engine answered)',
      ],
    });
  });

  it('starts containers when the variables are unset and a Docker engine answers (a laptop)', () => {
    const choice = chooseTestServices({
      databaseUrl: undefined,
      redisUrl: undefined,
      dockerAnswers: true,
    });
    expect([choice.postgres, choice.redis]).toEqual(['container', 'container']);
    expect(choice.lines).toEqual([
      'PostgreSQL: container (DATABASE_URL unset, a Docker engine answered)',
      'Redis: container (REDIS_URL unset, a Docker engine answered)',
    ]);
  });

  it('keeps a set variable whatever Docker says, deciding each service on its own', () => {
    const choice = chooseTestServices({
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/aso',
      redisUrl: undefined,
      dockerAnswers: true,
    });
    expect([choice.postgres, choice.redis]).toEqual(['env', 'container']);
    expect(choice.lines[0]).toBe('PostgreSQL: env (DATABASE_URL is set)');
    expect(
      chooseTestServices({
        databaseUrl: 'postgres://db:5432/x',
        redisUrl: 'redis://cache:6379',
        dockerAnswers: false,
      }),
    ).toMatchObject({ postgres: 'env', redis: 'env' });
  });
});

describe('dockerEndpointCandidates', () => {
  it("lists the daemon's socket, Docker Desktop's, a rootless one and testcontainers' settings", () => {
    expect(dockerEndpointCandidates({ XDG_RUNTIME_DIR: '/run/user/1000' }, '/home/dev')).toEqual([
      '/var/run/docker.sock',
      '/home/dev/.docker/run/docker.sock',
      '/home/dev/.docker/desktop/docker.sock',
      '/run/user/1000/docker.sock',
      '/home/dev/.testcontainers.properties',
    ]);
    expect(dockerEndpointCandidates({}, '/home/dev')).not.toContain('/run/user/1000/docker.sock');
  });
});
