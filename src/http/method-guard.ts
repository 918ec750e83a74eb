import { Hono } from 'hono';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface Route {
  method: string;
  path: string;
}

/**
 * Whether a request matches one of the routes, asked of a router of their own (Hono's `ALL`
 * middleware entries left out). HEAD matches GET, as Hono answers it.
 */
export function createRouteMatcher(routes: readonly Route[], options: { strict?: boolean } = {}) {
  const probe = new Hono(options);
  const marker = () => new Response(null);
  for (const route of routes) {
    if (route.method !== 'ALL') probe.on(route.method, route.path, marker);
  }
  return (method: string, path: string): boolean =>
    probe.router.match(method === 'HEAD' ? 'GET' : method, path)[0].length > 0;
}

/**
 * Answers "which methods does this path have?" from the app's own route table, so that an
 * unmatched method gets 405 with `Allow` and an unmatched path 404.
 */
export function createAllowedMethods(routes: readonly Route[]): (path: string) => string[] {
  const matches = createRouteMatcher(routes);
  return (path) => METHODS.filter((method) => matches(method, path));
}
