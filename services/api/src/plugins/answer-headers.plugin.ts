import fp from 'fastify-plugin';

/**
 * Headers every answer of the gateway carries (OWASP HTTP headers cheat sheet):
 * - `X-Content-Type-Options: nosniff` on every answer, so a browser never runs an answer as
 *   another type than the one declared (a JSON body read as HTML or script);
 * - `Cache-Control: no-store` on JSON answers that set no caching of their own: they hold a
 *   user's data, which no shared or browser cache should keep. Answers that choose their own
 *   caching keep it (chart data: `private, no-cache` with its ETag; the web app's files);
 * - `Strict-Transport-Security` only on answers over HTTPS (`req.protocol`, which takes
 *   `X-Forwarded-Proto` from a proxy trusted by `TRUST_PROXY`): over plain HTTP a browser
 *   ignores it, and a local install must stay reachable without TLS.
 */
export const answerHeadersPlugin = fp(
  async (app) => {
    // A callback hook: it does no I/O, and an async hook costs a promise per answer.
    app.addHook('onSend', (req, reply, payload, done) => {
      if (req.protocol === 'https') {
        void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      }
      if (!reply.hasHeader('x-content-type-options'))
        void reply.header('x-content-type-options', 'nosniff');
      const type = reply.getHeader('content-type');
      if (
        typeof type === 'string' &&
        type.startsWith('application/json') &&
        !reply.hasHeader('cache-control')
      ) {
        void reply.header('cache-control', 'no-store');
      }
      done(null, payload);
    });
  },
  { name: 'answer-headers' },
);
