import { Hono } from 'hono';
import type { AssetLibrary } from '../assets/index.js';
import { servePrefixOf } from '../assets/usage.js';
import { createContentQueries } from '../content/queries.js';
import type { ContentStore } from '../content/store.js';
import type { ChangeFeed } from '../events/feed.js';
import type { GitService } from '../git/service.js';
import type { IdentityVerifier } from '../identity/types.js';
import type { Reviewer } from '../review/reviewer.js';
import type { SitesSource } from '../sites/sites-config.js';
import type { AppEnv } from './app-env.js';
import type { EndpointSpec } from './endpoint.js';
import { type API, ENDPOINTS } from './endpoints.js';
import { identityMiddleware } from './identity-middleware.js';
import { createAllowedMethods, createRouteMatcher } from './method-guard.js';
import { devNetworkGuard } from './network-guard.js';
import { errorResponse, onError } from './on-error.js';
import { originGuard } from './origin-guard.js';
import { type AreaHandlers, type Handler, registerEndpoint } from './register.js';
import { assetHandlers } from './routes/assets.js';
import { authHandlers } from './routes/auth.js';
import { contentHandlers } from './routes/content.js';
import { dataHandlers } from './routes/data.js';
import { eventHandlers } from './routes/events.js';
import { fragmentHandlers } from './routes/fragments.js';
import { gitHandlers } from './routes/git.js';
import { openApiHandler } from './routes/openapi.js';
import { siteHandlers } from './routes/sites.js';

export interface AppDependencies {
  prefix: string;
  store: ContentStore;
  reviewer: Reviewer;
  sites: SitesSource;
  git: GitService;
  assets: AssetLibrary;
  events: ChangeFeed;
  verifyIdentity: IdentityVerifier;
  requireIdentity: boolean;
  /** Browser origins besides the site's own that may call the API. */
  allowedOrigins: readonly string[];
  /** Refuse writes from other machines (the open API of `astro dev --host`). */
  loopbackWritesOnly: boolean;
  limits: { jsonBodyBytes: number };
}

type Table = typeof API;
/** A handler for every endpoint of the table, in its shape. */
type TableHandlers = {
  [K in keyof Table]: Table[K] extends EndpointSpec ? Handler<Table[K]> : AreaHandlers<Table[K]>;
};

/** The whole API: the endpoint table registered in order, one error handler, 404 and 405 from the same table. */
export function createApp(deps: AppDependencies) {
  const app = new Hono<AppEnv>({ strict: false });
  const api = app.basePath(deps.prefix);
  const queries = createContentQueries(deps.store, deps.sites);
  const handlers: TableHandlers = {
    openapi: openApiHandler(deps.prefix),
    auth: authHandlers(),
    events: eventHandlers(deps.events),
    assets: assetHandlers(deps.assets),
    content: contentHandlers(deps.store, queries, deps.reviewer),
    data: dataHandlers(queries),
    fragments: fragmentHandlers(queries, 'fragment'),
    blocks: fragmentHandlers(queries, 'block'),
    git: gitHandlers(deps.git, deps.store),
    sites: siteHandlers(deps.store, deps.sites, queries),
  };

  const publicRoutes = ENDPOINTS.filter((endpoint) => endpoint.access === 'public').map((endpoint) => ({
    method: endpoint.method,
    path: `${deps.prefix}${endpoint.path}`,
  }));
  const isPublic = createRouteMatcher(publicRoutes, { strict: false });
  // First of all, public routes included: a page of another origin gets nothing, not even a 404.
  api.use('*', ...originGuard({ allowedOrigins: deps.allowedOrigins, publicFiles: servePrefixOf(deps.prefix) }));
  api.use('*', identityMiddleware(deps.verifyIdentity, { requireIdentity: deps.requireIdentity, isPublic }));
  if (deps.loopbackWritesOnly) api.use('*', devNetworkGuard());
  for (const endpoint of ENDPOINTS) {
    const handler = endpoint.operation
      .split('.')
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], handlers) as Handler<EndpointSpec>;
    registerEndpoint(api, endpoint, handler, deps.limits);
  }

  const allowedMethods = createAllowedMethods(app.routes);
  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0) {
      return errorResponse(
        'METHOD_NOT_ALLOWED',
        `${c.req.method} is not allowed here; use ${allowed.join(', ')}.`,
        { allowed },
        { allow: allowed.join(', ') },
      );
    }
    return errorResponse('ROUTE_NOT_FOUND', `No API route at ${c.req.path}.`);
  });
  app.onError(onError);
  return app;
}
