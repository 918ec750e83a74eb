import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse } from '../http/on-error.js';
import { contentSettled } from './shared.js';

type Next = (error?: unknown) => void;
type Handler = (req: IncomingMessage, res: ServerResponse, next: Next) => void;
interface DevServer {
  middlewares: { stack: Array<{ route: string; handle: Handler }> };
}
interface ResolvedServerConfig {
  server: { cors?: unknown };
}

/** Whether a request target is under the API prefix. */
const underPrefix = (prefix: string, target: string | undefined) => {
  const pathname = (target ?? '').split('?')[0]!;
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
};

/** A refresh takes well under a second (Astro holds it 500 ms to write an MDX entry's module list); a page never waits longer than this. */
const SETTLE_LIMIT_MS = 5_000;

/** Whether a request may render a page of the site (and so read Astro's data store), rather than fetch one of Vite's modules. */
const mayRenderPage = (req: IncomingMessage, quirePaths: string[]) =>
  (req.method === 'GET' || req.method === 'HEAD') &&
  !req.url!.startsWith('/@') &&
  !req.url!.startsWith('/node_modules/') &&
  !quirePaths.some((path) => underPrefix(path, req.url));

/**
 * The dev server's part of the API's edge, which Vite handles before Astro sees a request:
 * - Vite answers CORS for every localhost origin by default (`server.cors`), preflights included.
 *   Under the prefix the API decides alone (refusing other origins, answering the ones the owner
 *   listed), so Vite's CORS is turned off there and kept as configured everywhere else. The `cors`
 *   middleware Vite uses accepts a function of the request in place of its options.
 * - A malformed percent-encoding in the path makes Astro's dev server throw (its error page, with a
 *   stack) before the route runs: the API answers 400 with its envelope instead.
 * - A page requested while Quire's loaders refresh the content (right after a save, when Astro
 *   sends the open pages a reload) waits for the refresh, so it shows the change.
 */
export function devServerPlugin(prefix: string, adminPath: string | undefined) {
  const quirePaths = adminPath === undefined ? [prefix] : [prefix, adminPath];
  return {
    name: 'astro-quire:dev-server',
    apply: 'serve' as const,
    configResolved(config: ResolvedServerConfig) {
      const outside = config.server.cors;
      if (outside === false || outside === undefined) return;
      const options = outside === true ? {} : outside;
      config.server.cors = (req: IncomingMessage, callback: (error: null, options: unknown) => void) =>
        callback(null, underPrefix(prefix, req.url) ? { origin: false } : options);
    },
    configureServer(server: DevServer) {
      // Astro puts its own middleware (which decodes the path) at the front of the stack once the
      // server is set up; this runs after it, so the check goes in front of Astro's.
      return () => {
        server.middlewares.stack.unshift({
          route: '',
          handle: (req, res, next) => {
            if (mayRenderPage(req, quirePaths)) return void contentSettled(SETTLE_LIMIT_MS).then(() => next());
            if (!underPrefix(prefix, req.url) || isWellEncoded(req.url!.split('?')[0]!)) return next();
            void send(
              res,
              errorResponse('INVALID_REQUEST', 'The request path has a malformed percent-encoding (such as %ff).'),
            );
          },
        });
      };
    },
  };
}

function isWellEncoded(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(await response.text());
}
