import { createMiddleware } from 'hono/factory';
import { QuireError } from '../errors.js';
import { isLoopback } from '../util/loopback.js';
import type { AppEnv } from './app-env.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * `astro dev --host` puts the open dev API on the network: without a verified identity, only
 * clients on this machine may change content or run git; others may read.
 */
export function devNetworkGuard() {
  return createMiddleware<AppEnv>(async (c, next) => {
    // An address the server cannot tell (undefined) is let through: there is nothing to judge it by.
    const address = READS.has(c.req.method) ? undefined : c.env?.clientAddress;
    if (address && !isLoopback(address) && !c.get('identity')) {
      throw new QuireError(
        'FORBIDDEN_CLIENT',
        `astro dev accepts changes without identity only from this machine, and ${address} is another one: ` +
          'set requireIdentity: true with an auth gateway, or dev: { allowNetworkWrites: true } in the quire() options to let anyone on the network write.',
      );
    }
    await next();
  });
}
