import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import { QuireError } from '../errors.js';
import type { AppEnv } from './app-env.js';

/**
 * Who sent a browser request the API does not answer, or null: pages of the site itself and of
 * the origins the owner listed are answered. Without `Origin`, a request is a browser's only if
 * `Sec-Fetch-Site` says so; curl, the typed client in Node and other servers send neither.
 */
function refusedOrigin(
  headers: Headers,
  siteOrigin: string,
  allowedOrigins: readonly string[],
  publicRead: boolean,
): string | null {
  const origin = headers.get('origin');
  if (origin === null) {
    // A link or an <img> on another site may load a public file: the page cannot read the answer anyway.
    return headers.get('sec-fetch-site') === 'cross-site' && !publicRead ? 'a page on another site' : null;
  }
  return origin === siteOrigin || allowedOrigins.includes(origin) ? null : origin;
}

/**
 * Refuses browser requests from other origins before any handler runs, in dev and production
 * alike (Vite's dev server would otherwise let every localhost page read and write), and answers
 * CORS only for the origins the owner listed in `allowedOrigins`.
 */
export function originGuard(options: { allowedOrigins: readonly string[]; publicFiles: string }) {
  const guard = createMiddleware<AppEnv>(async (c, next) => {
    const publicRead =
      (c.req.method === 'GET' || c.req.method === 'HEAD') && c.req.path.startsWith(options.publicFiles);
    const refused = refusedOrigin(c.req.raw.headers, new URL(c.req.url).origin, options.allowedOrigins, publicRead);
    if (refused) {
      throw new QuireError(
        'FORBIDDEN_ORIGIN',
        `Requests from ${refused} may not use this API: only the site's own pages may, and the origins listed in the allowedOrigins option.`,
      );
    }
    await next();
  });
  if (options.allowedOrigins.length === 0) return [guard];
  return [
    guard,
    cors({
      origin: (origin) => (options.allowedOrigins.includes(origin) ? origin : null),
      credentials: true,
      exposeHeaders: ['ETag', 'Allow'],
      maxAge: 600,
    }),
  ];
}
