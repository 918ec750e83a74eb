import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { devServerPlugin } from './src/config/dev-server-plugin.js';
import { createMdxCheck } from './src/config/mdx-errors.js';
import { mdxImagesPlugin } from './src/config/mdx-images-plugin.js';
import { describeStartup, resolveOptions } from './src/config/resolve.js';
import type { UserOptions } from './src/config/schema.js';
import { REFRESH_CONTEXT, shareContentRefresh, shareMdxCheck, shareOptions } from './src/config/shared.js';
import { configPlugin } from './src/config/virtual-module.js';
import { effectiveAuth } from './src/identity/auth-config.js';
import { SETTINGS_EVENT, TOOLBAR_APP_ID, type ToolbarSettings } from './src/toolbar/messages.js';
import { isLoopback } from './src/util/loopback.js';

export type { UserOptions as QuireOptions } from './src/config/schema.js';

/** A quire (folded sheets) for the dev toolbar. */
const TOOLBAR_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 5h7a3 3 0 0 1 3 3v11a2 2 0 0 0-2-2H4z"/><path d="M20 5h-3a3 3 0 0 0-3 3v11a2 2 0 0 1 2-2h4z"/></svg>';

/**
 * Libraries the API loads on its first request, bundled into the built server with the package:
 * Node loading their few hundred modules one by one held the event loop ~40 ms longer on that
 * request (measured at 10k items: 95–128 ms against 63–76 ms). In dev, Vite leaves them to Node.
 */
const BUNDLED_IN_BUILD = ['hono', 'valibot', 'yaml', 'jose', 'mime', 'image-size'];

/** The Quire integration: `integrations: [quire()]` in astro.config.mjs. */
export function quire(userOptions?: UserOptions): AstroIntegration {
  let loopbackWritesOnly = false;
  /** Set when the dev toolbar app is added: what it is told once it starts. */
  let toolbarSettings: ToolbarSettings | undefined;
  return {
    name: 'astro-quire',
    hooks: {
      'astro:config:setup': ({
        config,
        command,
        injectRoute,
        addMiddleware,
        addDevToolbarApp,
        updateConfig,
        logger,
      }) => {
        if (command === 'build' && !config.adapter) {
          throw new Error(
            'astro-quire serves its API on demand, so the site needs a server adapter. ' +
              'Run `npx astro add node` (or add `adapter: node({ mode: "standalone" })` from @astrojs/node to astro.config.mjs).',
          );
        }
        const options = resolveOptions(userOptions, {
          projectRoot: fileURLToPath(config.root),
          mode: command === 'dev' ? 'dev' : 'production',
        });
        // The content loader of the same site reads the content root, prefix and media folder from here.
        shareOptions(options);
        updateConfig({
          vite: {
            plugins: [
              configPlugin(options),
              devServerPlugin(options.prefix, options.admin?.path),
              mdxImagesPlugin(options),
            ],
            // The route imports a virtual module, so Vite must bundle the package rather than leave it to Node.
            ssr: { noExternal: ['astro-quire', ...(command === 'build' ? BUNDLED_IN_BUILD : [])] },
          },
        });
        injectRoute({
          pattern: `${options.prefix}/[...path]`,
          entrypoint: new URL('./routes/api.js', import.meta.url),
          prerender: false,
        });
        if (options.admin) {
          injectRoute({
            pattern: `${options.admin.path}/[...route]`,
            entrypoint: new URL('./routes/admin.js', import.meta.url),
            prerender: false,
          });
          if (command === 'dev') {
            addDevToolbarApp({
              id: TOOLBAR_APP_ID,
              name: 'Quire: edit this page',
              icon: TOOLBAR_ICON,
              entrypoint: new URL('./src/toolbar/app.js', import.meta.url),
            });
            toolbarSettings = { prefix: options.prefix, adminPath: options.admin.path, preview: options.admin.preview };
          }
        }
        if (options.redirects) {
          addMiddleware({ entrypoint: new URL('./routes/middleware.js', import.meta.url), order: 'pre' });
        }
        if (command === 'dev')
          logger.info(describeStartup(options, options.contentRoot, effectiveAuth(options.auth)?.type));
        loopbackWritesOnly = command === 'dev' && !options.requireIdentity && !options.dev.allowNetworkWrites;
      },
      'astro:server:start': ({ address, logger }) => {
        if (loopbackWritesOnly && !isLoopback(address.address)) {
          logger.warn(
            `astro dev listens on ${address.address}, beyond this machine: the content API answers reads from the network, ` +
              'but changes and git only from this machine. To let others write, set requireIdentity: true with an auth gateway, ' +
              'or dev: { allowNetworkWrites: true }.',
          );
        }
      },
      'astro:server:setup': ({ server, refreshContent, logger, toolbar }) => {
        const settings = toolbarSettings;
        if (settings) toolbar.onAppInitialized(TOOLBAR_APP_ID, () => toolbar.send(SETTINGS_EVENT, settings));
        // Quire's loaders refresh through Astro after a change: Astro then writes its data store at
        // once and sends the open pages a full reload over Vite's HMR channel.
        if (refreshContent)
          shareContentRefresh(() => refreshContent({ loaders: ['astro-quire'], context: { ...REFRESH_CONTEXT } }));
        shareMdxCheck(createMdxCheck(server, logger));
      },
    },
  };
}

export default quire;
