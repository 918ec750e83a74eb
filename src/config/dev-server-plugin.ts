import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse } from '../http/on-error.js';

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

/**
 * The dev server's part of the API's edge, which Vite handles before Astro sees a request:
 * - Vite answers CORS for every localhost origin by default (`server.cors`), preflights included.
 *   Under the prefix the API decides alone (refusing other origins, answering the ones the owner
 *   listed), so Vite's CORS is turned off there and kept as configured everywhere else. The `cors`
 *   middleware Vite uses accepts a function of the request in place of its options.
 * - A malformed percent-encoding in the path makes Astro's dev server throw (its error page, with a
 *   stack) before the route runs: the API answers 400 with its envelope instead.
 */
export function devServerPlugin(prefix: string) {
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
