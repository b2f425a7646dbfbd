import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const progressRoutes: FastifyPluginAsyncZod = async () => {};
