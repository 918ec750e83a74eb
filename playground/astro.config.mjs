// The Quire playground: a small Astro site that mounts the API from this repository.
// `astro-quire` resolves to the repo's own package (dist/integration.js, built by `npm run build`).
// The content root comes from CONTENT_PATH, which scripts/playground.mjs sets to playground/.content.

import mdx from '@astrojs/mdx';
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import quire from 'astro-quire';

export default defineConfig({
  output: 'static',
  adapter: node({ mode: 'standalone' }),
  // @astrojs/mdx compiles the MDX pages and fragments: components, expressions, optimised images.
  integrations: [
    mdx(),
    quire({
      // The editor's preview and "edit this page" find pages where src/lib/urls.ts puts them
      // (sites.json's domains are the production ones, not this one host).
      admin: {
        preview: {
          marketing: '{origin}{localePrefix}{pathname}',
          docs: '{origin}/docs{localePrefix}{pathname}',
        },
      },
    }),
  ],
  server: {
    host: '127.0.0.1',
    port: Number(process.env.PORT) || 4321,
  },
});
