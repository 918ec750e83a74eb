import { createAssetLibrary } from './assets/index.js';
import { createContentReferences, servePrefixOf } from './assets/usage.js';
import { describeStartup, type ResolvedOptions, runtimeAssetsDir, runtimeContentRoot } from './config/resolve.js';
import { createContentStore } from './content/store.js';
import { createChangeFeed } from './events/feed.js';
import { createGitService } from './git/service.js';
import { createApp } from './http/app.js';
import { effectiveAuth } from './identity/auth-config.js';
import { createIdentityVerifier } from './identity/create-verifier.js';
import { createReviewer } from './review/reviewer.js';
import { createRedirectLookup } from './sites/redirect-lookup.js';
import { createSitesConfig } from './sites/sites-config.js';

function createServices(options: ResolvedOptions) {
  const root = runtimeContentRoot(options);
  const assetsDir = runtimeAssetsDir(options, root);
  const auth = effectiveAuth(options.auth);
  const sites = createSitesConfig(root);
  const events = createChangeFeed();
  const store = createContentStore({
    root,
    sites,
    metadataBytes: options.limits.metadataBytes,
    cacheBytes: options.limits.cacheBytes,
    excluded: [assetsDir],
    feed: events,
    referencesOf: createContentReferences(servePrefixOf(options.prefix)),
  });
  const reviewer = createReviewer({ root, store });
  const git = createGitService({
    contentRoot: root,
    assetsDir,
    branch: options.git.branch,
    exclusive: (task) => store.exclusive(task),
    announce: events.announce,
  });
  // After the index is built: the status walk would compete with the start-up scan for the disk and the cores.
  store.ready.then(git.warmStatus, () => null);
  const assets = createAssetLibrary({
    dir: assetsDir,
    maxBytes: options.assets.maxBytes,
    allowedTypes: options.assets.allowedTypes,
    prefix: options.prefix,
    allowPrivateNetworks: options.importUrl.allowPrivateNetworks,
    content: store,
    announce: events.announce,
  });
  const verifyIdentity = createIdentityVerifier(auth);
  const app = createApp({
    prefix: options.prefix,
    store,
    reviewer,
    sites,
    git,
    assets,
    events,
    verifyIdentity,
    requireIdentity: options.requireIdentity,
    allowedOrigins: options.allowedOrigins,
    loopbackWritesOnly: options.mode === 'dev' && !options.requireIdentity && !options.dev.allowNetworkWrites,
    limits: options.limits,
  });
  // In dev the integration already said this at startup; a built server says it when it first serves the API.
  if (options.mode === 'production') console.info(`[astro-quire] ${describeStartup(options, root, auth?.type)}`);
  return { app, store, sites, git, verifyIdentity, redirectFor: createRedirectLookup(store, sites) };
}

export type Services = ReturnType<typeof createServices>;

const REGISTRY = Symbol.for('astro-quire.services');
type Registry = { key: string; services: Services };

/**
 * One set of services per process: Vite may evaluate the route module more than once in dev,
 * and each copy must share the same index, watchers and locks.
 */
export function getServices(options: ResolvedOptions): Services {
  const holder = globalThis as typeof globalThis & { [REGISTRY]?: Registry };
  const key = JSON.stringify(options);
  const current = holder[REGISTRY];
  if (current?.key === key) return current.services;
  current?.services.store.close();
  const services = createServices(options);
  holder[REGISTRY] = { key, services };
  return services;
}
