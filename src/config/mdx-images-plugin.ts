import fs from 'node:fs/promises';
import path from 'node:path';
import { createAssetFiles } from '../loader/images.js';
import { type ResolvedOptions, runtimeAssetsDir, runtimeContentRoot } from './resolve.js';

/**
 * Lets `@astrojs/mdx` optimise Markdown images of Quire's MDX files: it reads each `.mdx` file of
 * the content root with image serve URLs (`![alt](/__cms/api/assets/serve/team/a.jpg)`) made
 * relative to the file, which the MDX pipeline imports and sends through `astro:assets` like any
 * local image. A `load` hook, so it runs before every transform, whatever the integrations' order.
 */
export function mdxImagesPlugin(options: ResolvedOptions) {
  const root = runtimeContentRoot(options);
  const assets = createAssetFiles({ prefix: options.prefix, assetsDir: runtimeAssetsDir(options, root) });
  return {
    name: 'astro-quire:mdx-images',
    enforce: 'pre' as const,
    async load(id: string) {
      const file = id.split('?')[0]!;
      if (!file.endsWith('.mdx') || !file.startsWith(root + path.sep)) return undefined;
      return assets.localizeMdx(await fs.readFile(file, 'utf8'), file);
    },
  };
}
