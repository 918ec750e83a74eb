import { createMiddleware } from 'hono/factory';
import { QuireError } from '../errors.js';
import type { IdentityVerifier } from '../identity/types.js';
import type { AppEnv } from './app-env.js';

/**
 * Puts the verified identity (or null) on the context; when identity is required, refuses every
 * request without one except those of the public endpoints (`access: 'public'` in the table).
 */
export function identityMiddleware(
  verify: IdentityVerifier,
  options: { requireIdentity: boolean; isPublic: (method: string, path: string) => boolean },
) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const result = await verify(c.req.raw.headers);
    c.set('identity', result.identity);
    c.set('identityReason', result.identity ? '' : result.reason);
    if (options.requireIdentity && !result.identity && !options.isPublic(c.req.method, c.req.path)) {
      throw new QuireError(
        'UNAUTHORIZED',
        `This endpoint needs a verified identity from the access gateway: ${result.reason}.`,
      );
    }
    await next();
  });
}
