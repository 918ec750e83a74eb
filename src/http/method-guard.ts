import { Hono } from 'hono';
import type { RouterRoute } from 'hono/types';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Answers "which methods does this path have?" from the app's own route table, so that an
 * unmatched method gets 405 with `Allow` and an unmatched path 404.
 */
export function createAllowedMethods(routes: RouterRoute[]): (path: string) => string[] {
  const probe = new Hono();
  const marker = () => new Response(null);
  for (const route of routes) {
    if (route.method !== 'ALL') probe.on(route.method, route.path, marker);
  }
  return (path) => {
    const allowed = METHODS.filter((method) => probe.router.match(method === 'HEAD' ? 'GET' : method, path)[0].length > 0);
    return allowed;
  };
}
