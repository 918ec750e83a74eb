import { pathToFileURL } from 'node:url';
import type { LoaderContext } from 'astro/loaders';

/**
 * Renders an MDX body with Astro's Markdown pipeline (the site's markdown config), for a site
 * without @astrojs/mdx. This is Markdown, not MDX: `import`/`export` lines and `{expressions}` are not evaluated, and component
 * tags such as `<Callout>` stay HTML-like tags. An empty front matter is put first, so a body that
 * itself starts with `---` is never taken for front matter.
 */
type Rendered = Awaited<ReturnType<LoaderContext['renderMarkdown']>>;

export async function renderMdx(context: LoaderContext, mdx: string, filePath: string): Promise<Rendered | undefined> {
  try {
    return await context.renderMarkdown(`---\n---\n${mdx}`, { fileURL: pathToFileURL(filePath) });
  } catch (error) {
    context.logger.warn(`could not render ${filePath}: ${(error as Error).message}`);
    return undefined;
  }
}
