import type { AstroIntegration, AstroIntegrationLogger } from 'astro';

/** Vite's dev server, as Astro hands it to integrations (vite itself is Astro's dependency, not ours). */
type DevServer = Parameters<NonNullable<AstroIntegration['hooks']['astro:server:setup']>>[0]['server'];

interface MdxError {
  message: string;
  stack: string;
  id: string;
  plugin: string;
  loc?: { file: string; line: number; column: number };
}

/**
 * `astro dev` only. Astro renders a deferred MDX entry that does not compile as nothing (it logs
 * the error), so Quire compiles a changed MDX file itself: an error is logged with the file and
 * line and shown in the browser's error overlay, and shown again to every page that connects
 * (the one reloaded after the change, the next one opened) until the file compiles.
 */
export function createMdxCheck(server: DevServer, logger: AstroIntegrationLogger) {
  const errors = new Map<string, MdxError>();
  const show = (error: MdxError) => server.environments.client.hot.send({ type: 'error', err: error });
  server.ws.on('connection', () => {
    for (const error of errors.values()) show(error);
  });

  /** Entries that share a file (an inherited locale and its default) ask together: one compile, one report. */
  const running = new Map<string, Promise<void>>();

  return function checkMdx(file: string): Promise<void> {
    let check = running.get(file);
    if (!check) {
      check = compile(file).finally(() => running.delete(file));
      running.set(file, check);
    }
    return check;
  };

  async function compile(file: string): Promise<void> {
    try {
      await server.environments.ssr.transformRequest(file);
      errors.delete(file);
    } catch (thrown) {
      const error = thrown as Error & { loc?: { file?: string; line?: number; column?: number }; plugin?: string };
      const line = error.loc?.line;
      const column = error.loc?.column ?? 0;
      const where = line === undefined ? file : `${file}:${line}:${column}`;
      logger.error(`MDX does not compile: ${where}: ${error.message}`);
      const payload: MdxError = {
        message: error.message,
        stack: '',
        id: file,
        plugin: error.plugin ?? '@astrojs/mdx',
        ...(line !== undefined && { loc: { file, line, column } }),
      };
      errors.set(file, payload);
      show(payload);
    }
  }
}
