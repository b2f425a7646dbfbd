import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const webRoutes: FastifyPluginAsyncZod = async () => {};
