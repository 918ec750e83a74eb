import type { ResolvedOptions } from '../config/resolve.js';
import type { IdentityVerifier } from '../identity/types.js';
import { adminFilesDir, readManifest, serveAdminFile } from './files.js';
import { renderRefusal, renderShell } from './shell.js';

const html = (body: string, status: number) =>
  new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });

/**
 * Answers every request under the admin path: its hashed files under `assets/`, and the shell for
 * the path itself and any deep link below it. When identity is required, everything here is
 * refused without one, like the API.
 */
export function createAdminHandler(options: ResolvedOptions & { admin: { path: string } }) {
  const basePath = options.admin.path;
  const assetsPrefix = `${basePath}/assets/`;
  let dir: string | undefined;

  /** `inRepository` tells the app whether to show git's changed-file count (asking a non-repository would answer 400 on every screen). */
  return async (
    request: Request,
    verifyIdentity: IdentityVerifier,
    inRepository: () => Promise<boolean>,
  ): Promise<Response> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed', {
        status: 405,
        headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
      });
    }
    if (options.requireIdentity) {
      const result = await verifyIdentity(request.headers);
      if (!result.identity) return html(renderRefusal(result.reason), 401);
    }
    dir ??= adminFilesDir();
    const { pathname } = new URL(request.url);
    if (pathname.startsWith(assetsPrefix))
      return serveAdminFile(dir, pathname.slice(assetsPrefix.length), request.method === 'GET');
    const manifest = await readManifest(dir);
    if (!manifest) {
      return new Response(
        'The Quire admin is not built: the astro-quire package has no dist/admin/manifest.json (build it with `npm run build`).',
        {
          status: 500,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        },
      );
    }
    const shell = renderShell(
      {
        basePath,
        apiPrefix: options.prefix,
        mode: options.mode,
        preview: options.admin.preview,
        git: await inRepository(),
      },
      manifest,
    );
    return html(request.method === 'GET' ? shell : '', 200);
  };
}
