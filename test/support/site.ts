import { randomBytes } from 'node:crypto';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { inject } from 'vitest';
import { REPO_ROOT } from './paths.js';
import { childEnv, type ManagedProcess, runProcess, startProcess } from './process.js';

const ASTRO_BIN = path.join(REPO_ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs');
const READY_TIMEOUT_MS = 90_000;
const BUILD_TIMEOUT_MS = 240_000;

export interface SiteOptions {
  /** Short label; the folder is `test/.work/runs/<vitest pid>/sites/<name>-<random>`. */
  name: string;
  /** JavaScript source of the options object passed to `quire(...)`, e.g. `"{ auth: { type: 'jwt', ... } }"`. Omit for `quire()`. */
  config?: string;
  /** Files to write under the content root: relative path -> text. */
  content?: Record<string, string>;
  /** Content root relative to the site, where `content` files go. Must match `config`'s contentRoot. @default 'content' */
  contentDir?: string;
  /** `false` leaves the adapter out of astro.config.mjs (to test the "needs an adapter" error). @default true */
  adapter?: boolean;
  /** The site's `output`. @default 'static' (the common case: a static site plus the injected on-demand route) */
  output?: 'static' | 'server';
  /** Extra files relative to the site root (pages, etc.). */
  files?: Record<string, string>;
  /** The API prefix the config sets, used to poll for readiness. @default '/__cms/api' */
  prefix?: string;
  /** Other integrations, before Quire's: the default export of each package, called without options (e.g. `['@astrojs/mdx']`). */
  integrations?: string[];
}

/** A running dev or production server of a test site. */
export interface RunningSite {
  /** Origin of the server, e.g. `http://127.0.0.1:43121` (no trailing slash). */
  url: string;
  /** The server's process id (the leader of its process group). */
  pid: number;
  /** Server output so far (startup logs, error messages). */
  logs(): string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash would: no exit handlers run. Resolves once the process is gone. */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** A command the server runs under, e.g. `['setpriv', '--reuid=65534', ...]` or `['prlimit', '--fsize=0']`. */
  wrapper?: string[];
}

export interface TestSite {
  dir: string;
  contentRoot: string;
  /** `astro dev` on a free port of `host` (default 127.0.0.1; `0.0.0.0` is reached through 127.0.0.1); resolves once the API answers. */
  startDev(env?: Record<string, string | undefined>, options?: { host?: string }): Promise<RunningSite>;
  /** `astro build`; resolves with the exit code and output (for tests that expect a failure). */
  build(env?: Record<string, string | undefined>): Promise<{ code: number; output: string }>;
  /** `astro build` (throws with its output on failure), then the standalone server on a free port. */
  buildAndStart(env?: Record<string, string | undefined>): Promise<RunningSite>;
  /** The standalone server of the last build, on a free port (again after a stop or a kill). */
  startBuilt(env?: Record<string, string | undefined>, options?: StartOptions): Promise<RunningSite>;
}

/** A port that was free a moment ago on 127.0.0.1 (the OS picks it, so parallel workers do not collide). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Creates a fresh Astro site that depends on the packed package. No `npm install`: the site lives
 * inside the repository, so Node resolves astro, @astrojs/node and the package's own
 * dependencies from /work/main/node_modules by walking up. Only `astro-quire` itself is copied
 * into the site's node_modules, so the site imports the tarball's files, not the source tree.
 */
export async function createSite(options: SiteOptions): Promise<TestSite> {
  const runDir = inject('quireRunDir');
  if (!runDir)
    throw new Error(
      'quireRunDir was not provided: run the tests through vitest.config.ts (its globalSetup packs the package).',
    );
  const dir = path.join(runDir, 'sites', `${options.name}-${randomBytes(4).toString('hex')}`);
  const contentRoot = path.join(dir, options.contentDir ?? 'content');
  const adapter = options.adapter ?? true;
  const prefix = options.prefix ?? '/__cms/api';
  const others = (options.integrations ?? []).map((name, position) => ({ name, binding: `integration${position}` }));
  const astroConfig = `import { defineConfig } from 'astro/config';
${adapter ? "import node from '@astrojs/node';\n" : ''}import quire from 'astro-quire';
${others.map(({ name, binding }) => `import ${binding} from '${name}';\n`).join('')}
export default defineConfig({
  output: '${options.output ?? 'static'}',
${adapter ? "  adapter: node({ mode: 'standalone' }),\n" : ''}  integrations: [${others.map(({ binding }) => `${binding}(), `).join('')}quire(${options.config ?? ''})],
  server: { host: '127.0.0.1' },
});
`;

  const files: Record<string, string> = {
    'package.json': `${JSON.stringify({ name: `quire-test-${options.name}`, type: 'module', private: true }, null, 2)}\n`,
    'astro.config.mjs': astroConfig,
    'src/pages/index.astro': '---\n---\n<html><body><h1>quire test site</h1></body></html>\n',
    ...options.files,
  };
  for (const [relative, text] of Object.entries(files)) await writeText(path.join(dir, relative), text);
  await mkdir(contentRoot, { recursive: true });
  for (const [relative, text] of Object.entries(options.content ?? {}))
    await writeText(path.join(contentRoot, relative), text);
  await cp(path.join(runDir, 'package'), path.join(dir, 'node_modules', 'astro-quire'), { recursive: true });

  const build = async (env: Record<string, string | undefined> = {}) =>
    runProcess(process.execPath, [ASTRO_BIN, 'build'], { cwd: dir, env: childEnv(env), timeoutMs: BUILD_TIMEOUT_MS });

  const startBuilt = async (
    env: Record<string, string | undefined> = {},
    startOptions: StartOptions = {},
  ): Promise<RunningSite> => {
    const port = await freePort();
    const [command, ...args] = [
      ...(startOptions.wrapper ?? []),
      process.execPath,
      path.join(dir, 'dist', 'server', 'entry.mjs'),
    ];
    const proc = startProcess(command!, args, {
      cwd: dir,
      env: childEnv({ HOST: '127.0.0.1', PORT: String(port), ...env }),
    });
    return waitUntilReady(proc, `http://127.0.0.1:${port}`, 'production server', prefix);
  };

  return {
    dir,
    contentRoot,
    build,
    async startDev(env = {}, { host = '127.0.0.1' } = {}) {
      const port = await freePort();
      const proc = startProcess(process.execPath, [ASTRO_BIN, 'dev', '--port', String(port), '--host', host], {
        cwd: dir,
        env: childEnv(env),
      });
      // A server listening on every interface is still reached through loopback: tests send nothing elsewhere.
      const reachable = host === '0.0.0.0' ? '127.0.0.1' : host;
      return waitUntilReady(proc, `http://${reachable}:${port}`, 'astro dev', prefix);
    },
    async buildAndStart(env = {}) {
      const result = await build(env);
      if (result.code !== 0) throw new Error(`astro build failed in ${dir} (exit ${result.code}):\n${result.output}`);
      return startBuilt(env);
    },
    startBuilt,
  };
}

async function writeText(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

/**
 * Polls `GET /__cms/api/auth/user` (answers 200 in every access mode) until the server is up.
 * Bounded; fails fast with the server's output if the process exits first.
 */
async function waitUntilReady(proc: ManagedProcess, url: string, what: string, prefix: string): Promise<RunningSite> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exitedWith: number | string | undefined;
  void proc.exited.then((code) => {
    exitedWith = code;
  });
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exitedWith !== undefined) {
      await proc.stop();
      throw new Error(`${what} exited (${exitedWith}) before it was ready:\n${proc.logs()}`);
    }
    try {
      const response = await fetch(`${url}${prefix}/auth/user`, { signal: AbortSignal.timeout(5_000) });
      const body = await response.text();
      if (response.status === 200) return { url, pid: proc.pid, logs: proc.logs, stop: proc.stop, kill: proc.kill };
      last = `${response.status} ${body.slice(0, 300)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await proc.stop();
  throw new Error(`${what} at ${url} was not ready after ${READY_TIMEOUT_MS} ms (last: ${last}):\n${proc.logs()}`);
}
