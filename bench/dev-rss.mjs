#!/usr/bin/env node
// Resident memory of `astro dev` on the playground plus generated pages: the figure issue 20 asks
// for (content held once in dev). Run with Node 22 after `npm run build`:
//   npx node bench/dev-rss.mjs [--items 2000]
// It copies the playground's samples to a temp folder, adds N pages, starts the dev server, loads
// the API and a page (so both the API's index and the loader's entries exist), then samples VmRSS.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const itemsFlag = process.argv.indexOf('--items');
const items = itemsFlag > 0 ? Number(process.argv[itemsFlag + 1]) : 2000;

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-dev-rss-'));
const content = path.join(work, 'content');
await fs.cp(path.join(repoRoot, 'playground', 'content'), content, { recursive: true });
const folder = path.join(content, 'pages', 'marketing', 'generated');
await fs.mkdir(folder, { recursive: true });
for (let n = 0; n < items; n++) {
  const file = {
    type: 'visual',
    pathname: `/generated/${n}`,
    created: '2026-01-01T00:00:00.000Z',
    modified: '2026-01-01T00:00:00.000Z',
    meta: { title: `Generated page ${n}`, description: `A generated page for the memory measurement, number ${n}.` },
    content: {
      visualData: {
        root: { props: {} },
        content: [{ type: 'Text', props: { id: `text-${n}`, text: `Paragraph ${n} `.repeat(20) } }],
      },
    },
  };
  await fs.writeFile(path.join(folder, `generated-${n}.en.json`), `${JSON.stringify(file, null, 2)}\n`);
}

const port = await new Promise((resolve) => {
  const server = net.createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const env = { ...process.env, CONTENT_PATH: content };
delete env.VITEST;
const child = spawn(
  process.execPath,
  [
    path.join(repoRoot, 'node_modules', 'astro', 'bin', 'astro.mjs'),
    'dev',
    '--root',
    'playground',
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
  ],
  {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk;
});
child.stderr.on('data', (chunk) => {
  output += chunk;
});
const base = `http://127.0.0.1:${port}`;
const rssKb = async () => Number(/VmRSS:\s+(\d+)/.exec(await fs.readFile(`/proc/${child.pid}/status`, 'utf8'))[1]);
try {
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`dev server not ready:\n${output}`);
    const answer = await fetch(`${base}/__cms/api/content?kind=page`).catch(() => null);
    if (answer?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  for (const page of ['/pricing', '/playground', '/generated/1']) {
    const answer = await fetch(`${base}${page}`);
    if (!answer.ok) throw new Error(`${page}: ${answer.status}`);
  }
  const samples = [];
  for (let n = 0; n < 10; n++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    samples.push(await rssKb());
  }
  const mb = (kb) => (kb / 1024).toFixed(0);
  console.log(
    JSON.stringify({
      items,
      rssMbLast: Number(mb(samples.at(-1))),
      rssMbMax: Number(mb(Math.max(...samples))),
      samplesMb: samples.map((kb) => Number(mb(kb))),
    }),
  );
} finally {
  child.kill('SIGTERM');
  await fs.rm(work, { recursive: true, force: true });
}
