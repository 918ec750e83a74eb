import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { childEnv, runProcess, sleep, startProcess } from './processes.mjs';

export const API = '/__cms/api';
export const FLOOR_PREFIX = '/bench-floor';
/** The server's longest event-loop stall since the last call to it (then it starts over). */
export const LOOP_DELAY_PATH = '/bench-loop-delay';
/** The server's `process.memoryUsage()` in MB, to tell the JavaScript heap from memory outside it. */
const MEMORY_PATH = '/bench-memory';

/** The server's process.memoryUsage() in MB (rss, heapTotal, heapUsed, external, arrayBuffers). */
export const memoryUsageMB = async (server) => (await fetch(`${server.url}${MEMORY_PATH}`)).json();

/**
 * The floor of every read: an on-demand endpoint in the same server, behind the same Astro
 * routing and adapter, that answers a constant JSON body of exactly the requested size.
 */
const FLOOR_ENDPOINT = `import type { APIRoute } from 'astro';

export const prerender = false;

const MAX_BYTES = 256 * 1024 * 1024;
const bodies = new Map<number, string>();

export const GET: APIRoute = ({ params }) => {
  const size = Number(params.size);
  if (!Number.isInteger(size) || size < 8 || size > MAX_BYTES) return new Response('size must be an integer from 8 to 256 MiB', { status: 400 });
  let body = bodies.get(size);
  if (body === undefined) {
    body = \`{"p":"\${'x'.repeat(size - 8)}"}\`;
    bodies.set(size, body);
  }
  return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
`;

/**
 * monitorEventLoopDelay in the server's own process from its first moment: loaded with
 * `node --import` before the server's entry (a page module loads only on its first request, too
 * late to see a cold start), kept on globalThis for the endpoint below.
 */
const LOOP_DELAY_PRELOAD = 'bench-loop-delay.mjs';
const LOOP_DELAY_MONITOR = `import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
globalThis.__quireBenchLoopDelay = histogram;
`;

/** The longest stall since the last read, read and reset by the bench. */
const LOOP_DELAY_ENDPOINT = `import type { APIRoute } from 'astro';

export const prerender = false;

export const GET: APIRoute = () => {
  const histogram = (globalThis as { __quireBenchLoopDelay?: import('node:perf_hooks').IntervalHistogram }).__quireBenchLoopDelay;
  if (!histogram) return new Response('the server was started without ${LOOP_DELAY_PRELOAD}', { status: 500 });
  const body = JSON.stringify({ maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, samples: histogram.count });
  histogram.reset();
  return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
`;

const MEMORY_ENDPOINT = `import type { APIRoute } from 'astro';

export const prerender = false;

export const GET: APIRoute = () => {
  const usage: Record<string, number> = { ...process.memoryUsage() };
  const megabytes = Object.fromEntries(Object.entries(usage).map(([key, bytes]) => [key, Math.round(bytes / 104857.6) / 10]));
  return new Response(JSON.stringify(megabytes), { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
`;

/**
 * A production Astro site for the bench, inside the repository so that Node resolves astro,
 * @astrojs/node and the package's dependencies from the repo's node_modules by walking up.
 * The package is a copy of the packed one in the site's node_modules: the bench measures what
 * users install, and a concurrent `npm run build` (which empties dist/) cannot pull files from
 * under the build or the running server.
 */
export async function createBenchSite({ dir, packageDir, contentRoot, uploadMaxBytes }) {
  // redirects: false keeps Quire's redirect middleware off the floor endpoint: with it on, every
  // on-demand page (the floor included) awaits Quire's index, and the first one builds it. The
  // API never runs that middleware's lookup, so what is measured of Quire is the same.
  // admin: true mounts the in-site admin in the build (off in production by default) for the admin list measure.
  const options = {
    contentRoot,
    requireIdentity: false,
    redirects: false,
    admin: true,
    assets: { maxBytes: uploadMaxBytes },
  };
  const files = {
    'package.json': `${JSON.stringify({ name: 'quire-bench-site', type: 'module', private: true }, null, 2)}\n`,
    'astro.config.mjs': `import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import quire from 'astro-quire';

export default defineConfig({
  output: 'static',
  adapter: node({ mode: 'standalone' }),
  integrations: [quire(${JSON.stringify(options)})],
  server: { host: '127.0.0.1' },
});
`,
    'src/pages/index.astro': '---\n---\n<html><body><h1>quire bench site</h1></body></html>\n',
    // Not src/pages/__floor/: Astro leaves files and folders whose names start with "_" out of routing.
    [`src/pages${FLOOR_PREFIX}/[size].ts`]: FLOOR_ENDPOINT,
    [`src/pages${LOOP_DELAY_PATH}.ts`]: LOOP_DELAY_ENDPOINT,
    [`src/pages${MEMORY_PATH}.ts`]: MEMORY_ENDPOINT,
    [LOOP_DELAY_PRELOAD]: LOOP_DELAY_MONITOR,
  };
  for (const [relative, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await fs.writeFile(path.join(dir, relative), text);
  }
  await fs.cp(packageDir, path.join(dir, 'node_modules', 'astro-quire'), { recursive: true });
  return {
    dir,
    entry: path.join(dir, 'dist', 'server', 'entry.mjs'),
    preload: pathToFileURL(path.join(dir, LOOP_DELAY_PRELOAD)).href,
  };
}

export async function buildSite({ dir, astroBin }) {
  const result = await runProcess(process.execPath, [astroBin, 'build'], {
    cwd: dir,
    env: childEnv(),
    timeoutMs: 1_800_000,
  });
  if (result.code !== 0)
    throw new Error(`astro build failed in ${dir} (exit ${result.code}):\n${result.output.slice(-4_000)}`);
  return result;
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts the built server on a free loopback port (not waiting for it). */
export async function spawnServer(site, extraEnv = {}) {
  const port = await freePort();
  const proc = startProcess(process.execPath, ['--import', site.preload, site.entry], {
    cwd: site.dir,
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), ...extraEnv }),
  });
  return { ...proc, port, url: `http://127.0.0.1:${port}` };
}

/**
 * Polls `url` until `accept(response)` holds; resolves with the time since the process was
 * spawned, measured when the whole answer has arrived. Bounded; fails with the process's output.
 */
export async function waitFor(
  proc,
  url,
  { timeoutMs = 120_000, intervalMs = 10, init, accept = (response) => response.status === 200 } = {},
) {
  const deadline = Date.now() + timeoutMs;
  let exitCode;
  void proc.exited.then((code) => {
    exitCode = code;
  });
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exitCode !== undefined)
      throw new Error(`process exited (${exitCode}) before ${url} answered:\n${proc.logs().slice(-4_000)}`);
    try {
      // The whole remaining time: a first answer may wait for an index of 100k items.
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
      const body = await response.arrayBuffer();
      if (accept(response)) return { ms: performance.now() - proc.started, response, body: Buffer.from(body) };
      last = `${response.status} ${Buffer.from(body).toString().slice(0, 300)}`;
    } catch (error) {
      last = error.message;
    }
    await sleep(intervalMs);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (last: ${last}):\n${proc.logs().slice(-4_000)}`);
}

export async function startServer(site) {
  const server = await spawnServer(site);
  await waitFor(server, `${server.url}${API}/auth/user`, { intervalMs: 100 });
  return server;
}
