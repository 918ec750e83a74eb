import fs from 'node:fs';
import path from 'node:path';
import type { ImageMetadata } from 'astro';
import { createReferenceFinder, servePrefixOf } from '../assets/usage.js';

/** What `astro:assets` can resize and convert (SVG stays as it is: Astro makes a component of it). */
const RASTER = /\.(?:jpe?g|png|webp|avif|gif|tiff?)$/i;
/** Astro's content layer turns a data string with this prefix into an image import of the path after it. */
const IMAGE_IMPORT_PREFIX = '__ASTRO_IMAGE_';
/** A Markdown image's opening and its URL: `![alt](` or `![alt](<`, then the URL up to a space, `)` or `>`. */
const MARKDOWN_IMAGE = /(!\[[^\]\n]*\]\(\s*<?)([^\s)>]+)/g;

export interface AssetFiles {
  /** The API prefix: serve URLs are `${prefix}/assets/serve/<path>`. */
  prefix: string;
  /** The media folder the serve URLs point into. */
  assetsDir: string;
}

/**
 * Maps Quire serve URLs to files of the media folder: for an entry's `images` (through the content
 * layer's image imports) and for Markdown images in MDX files (rewritten to relative paths, which
 * the MDX pipeline optimises like any local image).
 */
export function createAssetFiles({ prefix, assetsDir }: AssetFiles) {
  const finder = createReferenceFinder(servePrefixOf(prefix));

  /** The raster image file an asset path names, if it exists. */
  function imageFileOf(assetPath: string): string | undefined {
    if (!RASTER.test(assetPath)) return undefined;
    const file = path.join(assetsDir, ...assetPath.split('/'));
    return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ? file : undefined;
  }

  /** `file` as a path relative to `from`'s folder, the way Markdown and `image()` write one (`./x.png`, `../a/x.png`). */
  function relativeTo(from: string, file: string): string {
    const relative = path.relative(path.dirname(from), file).split(path.sep).join('/');
    return relative.startsWith('.') ? relative : `./${relative}`;
  }

  return {
    /**
     * Serve URL → image import for each raster asset referenced by a string in `value` (meta,
     * visual data, data), relative to `entryFile` (the file the entry is stored under).
     */
    imageImportsOf(value: unknown, entryFile: string): Record<string, string> {
      const images: Record<string, string> = {};
      const visit = (node: unknown): void => {
        if (typeof node === 'string') {
          const assetPath = finder.assetPathOf(node);
          const file = assetPath === undefined ? undefined : imageFileOf(assetPath);
          if (file) images[node] = IMAGE_IMPORT_PREFIX + relativeTo(entryFile, file);
        } else if (Array.isArray(node)) {
          node.forEach(visit);
        } else if (typeof node === 'object' && node !== null) {
          Object.values(node).forEach(visit);
        }
      };
      visit(value);
      return images;
    },
    /**
     * An MDX file's text with each Markdown image (`![alt](url)`) whose URL is the serve URL of a
     * raster image made relative to `mdxFile`, so the MDX pipeline imports and optimises it.
     */
    localizeMdx(text: string, mdxFile: string): string {
      return text.replace(MARKDOWN_IMAGE, (whole, opening: string, url: string) => {
        const assetPath = finder.assetPathOf(url);
        const file = assetPath === undefined ? undefined : imageFileOf(assetPath);
        return file ? opening + relativeTo(mdxFile, file) : whole;
      });
    },
  };
}

/**
 * The optimisable image for an asset URL found in an entry's data (meta such as `ogImage`, an
 * image field of a visual block), for `astro:assets`: `<Image src={assetImage(entry, url)!} alt="" />`.
 * Undefined when the URL is not a serve URL of a raster image in the media folder.
 */
export function assetImage(
  entry: { data: { images?: Record<string, ImageMetadata> } },
  url: unknown,
): ImageMetadata | undefined {
  return typeof url === 'string' ? entry.data.images?.[url] : undefined;
}
