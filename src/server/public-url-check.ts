import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from './config';

// PUBLIC_URL unset is right for a laptop (http://localhost:PORT) and wrong behind a proxy or on
// a name: mailed and shared links would point at localhost, and cookies, HSTS and the live
// updates' origin would be those of plain http. The first request that shows it (forwarded by a
// proxy TRUST_PROXY trusts, or for another host) logs one warning naming PUBLIC_URL.

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Why this request says PUBLIC_URL should be set, or undefined when it does not. */
function reasonToSetPublicUrl(request: FastifyRequest, config: Config): string | undefined {
  const forwarded = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'].find(
    (name) => request.headers[name] !== undefined,
  );
  if (forwarded && config.trustProxy !== false)
    return `requests arrive through a proxy (${forwarded})`;
  const host = request.hostname.toLowerCase();
  if (host && !LOOPBACK_NAMES.has(host)) return `requests arrive for the host ${host}`;
  return undefined;
}

export function warnOnceWithoutPublicUrl(app: FastifyInstance, config: Config): void {
  if (config.publicUrlIsSet) return;
  let warned = false;
  app.addHook('onRequest', (request, _reply, done) => {
    if (!warned) {
      const reason = reasonToSetPublicUrl(request, config);
      if (reason) {
        warned = true;
        app.log.warn(
          `PUBLIC_URL is not set, but ${reason}: mailed and shared links point at ${config.publicUrl}. ` +
            'Set PUBLIC_URL to the address players open (e.g. https://hunch.example.com).',
        );
      }
    }
    done();
  });
}
