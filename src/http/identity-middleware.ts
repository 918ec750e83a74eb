import { createMiddleware } from 'hono/factory';
import { QuireError } from '../errors.js';
import type { IdentityVerifier } from '../identity/types.js';
import type { AppEnv } from './app-env.js';

/**
 * Puts the verified identity (or null) on the context; when identity is required, refuses every
 * request without one except `GET /auth/user`, which reports who the caller is.
 */
export function identityMiddleware(verify: IdentityVerifier, options: { requireIdentity: boolean; publicPath: string }) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const result = await verify(c.req.raw.headers);
    c.set('identity', result.identity);
    c.set('identityReason', result.identity ? '' : result.reason);
    if (options.requireIdentity && !result.identity && !(c.req.method === 'GET' && c.req.path === options.publicPath)) {
      throw new QuireError('UNAUTHORIZED', `This endpoint needs a verified identity from the access gateway: ${result.reason}.`);
    }
    await next();
  });
}
