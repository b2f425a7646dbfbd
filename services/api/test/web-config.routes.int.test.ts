import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { ZWebConfig } from '@aso/contracts';
import { parseApiEnv } from '../src/env';
import { webConfigRoutes } from '../src/routes/web-config.routes';

async function answer(env: Record<string, string>) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', parseApiEnv(env));
  await app.register(webConfigRoutes, { prefix: '/api' });
  try {
    const res = await app.inject({ url: '/api/web-config' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    return ZWebConfig.parse(res.json());
  } finally {
    await app.close();
  }
}

describe('GET /api/web-config', () => {
  it('gives the consulting link only when CONSULTING_URL is set, read at run time', async () => {
    expect(await answer({})).toEqual({ consultingUrl: null });
    expect(await answer({ CONSULTING_URL: 'https://aso.example/audit' })).toEqual({
      consultingUrl: 'https://aso.example/audit',
    });
  });

  it('refuses a CONSULTING_URL that is not an http(s) URL', () => {
    expect(() => parseApiEnv({ CONSULTING_URL: 'javascript:alert(1)' })).toThrow(/CONSULTING_URL/);
    expect(() => parseApiEnv({ CONSULTING_URL: 'not a url' })).toThrow(/CONSULTING_URL/);
  });
});
