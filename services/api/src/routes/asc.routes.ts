import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEMO_ASC_KEY, DEMO_ASC_PRIVATE_KEY } from '@aso/asc/stand-in';
import {
  ZAscAppParams,
  ZAscConnection,
  ZAscConnectionBody,
  ZAscConnectionParams,
  ZAscImport,
  ZAscImportParams,
  ZAscImportStarted,
  ZAscMetrics,
  ZAscMetricsQuery,
} from '@aso/contracts';
import {
  deleteAscConnection,
  findAscImportForUser,
  latestAscImports,
  listAscConnections,
} from '@aso/db';
import { currentUser } from '../plugins/auth.plugin';
import { notFound } from '../lib/app-error';
import { pageQuery, readPage } from '../lib/limits';
import {
  addAscConnection,
  ascConnectionWithImports,
  ascMetrics,
  startAscImport,
  toAscConnection,
  toAscImport,
} from '../services/asc.service';

/** Keys a user may add per minute (each makes a call to App Store Connect). */
const CONNECT_PER_MIN = 10;
/** Imports a user may ask for per minute. */
const IMPORT_PER_MIN = 20;

/**
 * App Store Connect (under `/api`, signed in; another user's connection or import is 404):
 * - `POST /asc/connections {name, issuerId, keyId, privateKey}`: add a key (201, with the apps
 *   it sees; 400 when the PEM is not an EC P-256 key or App Store Connect refuses it);
 * - `GET /asc/demo` `{available}`, `POST /asc/connections/demo`: the offline demo's key, when
 *   `ASC_DEMO` is on (201);
 * - `GET /asc/connections?limit=&cursor=`: a page of the user's connections, newest first, with
 *   each app's last import (docs/product.md#lists-and-pages);
 * - `GET /asc/connections/{id}`, `DELETE /asc/connections/{id}` (204; the sealed key is erased
 *   with the connection, its imports and figures);
 * - `POST /asc/connections/{id}/apps/{appId}/import`: 202 `{importId}`;
 * - `GET /asc/imports/{importId}`: state and counts;
 * - `GET /asc/connections/{id}/apps/{appId}/metrics?from=&to=[&territory=][&device=]`.
 */
export const ascRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, producers: app.producers, config: app.config, log: app.log });
  const connectLimit = app.perUserRateLimit('asc-connect', CONNECT_PER_MIN);
  const importLimit = app.perUserRateLimit('asc-import', IMPORT_PER_MIN);
  const ZPageQuery = pageQuery(app.config);
  const ZConnectionList = z.array(ZAscConnection);

  app.post(
    '/asc/connections',
    {
      preHandler: app.requireUser,
      schema: { body: ZAscConnectionBody, response: { 201: ZAscConnection } },
    },
    async (req, reply) => {
      await connectLimit(req);
      const conn = await addAscConnection(
        { ...deps(), log: req.log },
        currentUser(req).userId,
        req.body,
      );
      return reply.code(201).send(conn);
    },
  );

  app.get(
    '/asc/demo',
    {
      preHandler: app.requireUser,
      schema: { response: { 200: z.object({ available: z.boolean() }) } },
    },
    async () => ({ available: app.config.ASC_DEMO }),
  );

  app.post(
    '/asc/connections/demo',
    { preHandler: app.requireUser, schema: { response: { 201: ZAscConnection } } },
    async (req, reply) => {
      if (!app.config.ASC_DEMO)
        throw notFound('The demo key is offered only by the offline demo (ASC_DEMO)');
      await connectLimit(req);
      const conn = await addAscConnection({ ...deps(), log: req.log }, currentUser(req).userId, {
        name: DEMO_ASC_KEY.name,
        issuerId: DEMO_ASC_KEY.issuerId,
        keyId: DEMO_ASC_KEY.keyId,
        privateKey: DEMO_ASC_PRIVATE_KEY,
      });
      return reply.code(201).send(conn);
    },
  );

  app.get(
    '/asc/connections',
    {
      preHandler: [app.requireUser, app.listReadSlot],
      schema: { querystring: ZPageQuery, response: { 200: ZConnectionList } },
    },
    async (req, reply) => {
      const rows = await readPage(req, reply, req.query, app.config, (page) =>
        listAscConnections(app.db, currentUser(req).userId, page),
      );
      return Promise.all(
        rows.map(async (r) => toAscConnection(r, await latestAscImports(app.db, r.id))),
      );
    },
  );

  app.get(
    '/asc/connections/:id',
    {
      preHandler: app.requireUser,
      schema: { params: ZAscConnectionParams, response: { 200: ZAscConnection } },
    },
    async (req) => ascConnectionWithImports(deps(), currentUser(req).userId, req.params.id),
  );

  app.delete(
    '/asc/connections/:id',
    { preHandler: app.requireUser, schema: { params: ZAscConnectionParams } },
    async (req, reply) => {
      if (!(await deleteAscConnection(app.db, currentUser(req).userId, req.params.id))) {
        throw notFound('App Store Connect connection not found');
      }
      return reply.code(204).send();
    },
  );

  app.post(
    '/asc/connections/:id/apps/:appId/import',
    {
      preHandler: app.requireUser,
      schema: { params: ZAscAppParams, response: { 202: ZAscImportStarted } },
    },
    async (req, reply) => {
      await importLimit(req);
      const started = await startAscImport(
        deps(),
        currentUser(req).userId,
        req.params.id,
        req.params.appId,
      );
      return reply.code(202).send(started);
    },
  );

  app.get(
    '/asc/imports/:importId',
    {
      preHandler: app.requireUser,
      schema: { params: ZAscImportParams, response: { 200: ZAscImport } },
    },
    async (req) => {
      const row = await findAscImportForUser(app.db, currentUser(req).userId, req.params.importId);
      if (!row) throw notFound('Import not found');
      return toAscImport(row);
    },
  );

  app.get(
    '/asc/connections/:id/apps/:appId/metrics',
    {
      preHandler: app.requireUser,
      schema: {
        params: ZAscAppParams,
        querystring: ZAscMetricsQuery,
        response: { 200: ZAscMetrics },
      },
    },
    async (req) =>
      ascMetrics(deps(), currentUser(req).userId, req.params.id, req.params.appId, req.query),
  );
};
