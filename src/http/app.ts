import { Hono } from 'hono';
import type { AssetLibrary } from '../assets/index.js';
import type { ContentStore } from '../content/store.js';
import type { ChangeFeed } from '../events/feed.js';
import type { GitService } from '../git/service.js';
import type { SitesSource } from '../sites/sites-config.js';
import type { IdentityVerifier } from '../identity/types.js';
import type { AppEnv } from './app-env.js';
import { identityMiddleware } from './identity-middleware.js';
import { createAllowedMethods } from './method-guard.js';
import { devNetworkGuard } from './network-guard.js';
import { originGuard } from './origin-guard.js';
import { errorResponse, onError } from './on-error.js';
import { assetRoutes, assetServeRoutes } from './routes/assets.js';
import { authRoutes } from './routes/auth.js';
import { contentRoutes } from './routes/content.js';
import { dataRoutes } from './routes/data.js';
import { eventRoutes } from './routes/events.js';
import { fragmentRoutes } from './routes/fragments.js';
import { gitRoutes } from './routes/git.js';
import { openApiRoutes } from './routes/openapi.js';
import { siteRoutes, siteWideRoutes } from './routes/sites.js';

export interface AppDependencies {
  prefix: string;
  store: ContentStore;
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

/** The whole API: one sub-app per table of the interface, one error handler, 404 and 405 from the route table. */
export function createApp(deps: AppDependencies) {
  const app = new Hono<AppEnv>({ strict: false });
  const api = app.basePath(deps.prefix);
  // First of all, public routes included: a page of another origin gets nothing, not even a 404.
  api.use('*', ...originGuard({ allowedOrigins: deps.allowedOrigins, publicFiles: `${deps.prefix}/assets/serve/` }));
  // Before the identity check: pages show these files to visitors who have no gateway identity.
  api.route('/assets', assetServeRoutes(deps.assets));
  // Also public: the OpenAPI document describes the API and holds no content.
  api.route('/', openApiRoutes(deps.prefix));
  api.use('*', identityMiddleware(deps.verifyIdentity, { requireIdentity: deps.requireIdentity, publicPath: `${deps.prefix}/auth/user` }));
  if (deps.loopbackWritesOnly) api.use('*', devNetworkGuard());
  api.route('/auth', authRoutes());
  api.route('/events', eventRoutes(deps.events));
  api.route('/content', contentRoutes(deps.store, deps.limits));
  api.route('/data', dataRoutes(deps.store));
  api.route('/fragments', fragmentRoutes(deps.store, deps.sites, 'fragment'));
  api.route('/blocks', fragmentRoutes(deps.store, deps.sites, 'block'));
  api.route('/git', gitRoutes(deps.git, deps.store, deps.limits));
  api.route('/assets', assetRoutes(deps.assets, deps.limits));
  api.route('/', siteWideRoutes(deps.store, deps.sites));
  api.route('/', siteRoutes(deps.store, deps.sites, deps.limits));

  const allowedMethods = createAllowedMethods(app.routes);
  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0) {
      return errorResponse('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed here; use ${allowed.join(', ')}.`, { allowed }, { allow: allowed.join(', ') });
    }
    return errorResponse('ROUTE_NOT_FOUND', `No API route at ${c.req.path}.`);
  });
  app.onError(onError);
  return app;
}
