#!/usr/bin/env node
// Bundles the admin app (src/admin/main.tsx) into dist/admin: hashed files that the injected admin
// route serves, and manifest.json naming the entry script and its stylesheets for the shell page.
// Run by `npm run build` after tsc; prints the size of what a browser loads first.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(repoRoot, 'dist', 'admin');

await fs.rm(outdir, { recursive: true, force: true });
const result = await esbuild.build({
  // Output paths in the metafile are relative to this.
  absWorkingDir: repoRoot,
  entryPoints: { main: path.join(repoRoot, 'src', 'admin', 'main.tsx') },
  bundle: true,
  splitting: true,
  format: 'esm',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: '[name]-[hash]',
  outdir,
  metafile: true,
  target: 'es2022',
  logLevel: 'warning',
});

const outputs = result.metafile.outputs;
const relative = (file) => path.relative(outdir, path.resolve(repoRoot, file)).split(path.sep).join('/');
const [entryFile, entry] = Object.entries(outputs).find(([, output]) => output.entryPoint !== undefined);
const manifest = { entry: relative(entryFile), css: entry.cssBundle ? [relative(entry.cssBundle)] : [] };
await fs.writeFile(path.join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

/** The entry and every chunk it imports statically: what the browser fetches before the app runs. */
function initialFiles(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imported of outputs[file].imports)
    if (imported.kind === 'import-statement' && outputs[imported.path]) initialFiles(imported.path, seen);
  return seen;
}

const gzipSize = async (file) => gzipSync(await fs.readFile(path.resolve(repoRoot, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const initial = [
  ...initialFiles(entryFile),
  ...manifest.css.map((file) => path.relative(repoRoot, path.join(outdir, file))),
];
let initialRaw = 0;
let initialGzip = 0;
for (const file of initial) {
  initialRaw += outputs[file].bytes;
  initialGzip += await gzipSize(file);
}
const lazy = Object.keys(outputs).filter((file) => !initial.includes(file) && !file.endsWith('.map'));
const lines = [
  `[build-admin] initial load (${initial.length} files: JS + CSS): ${kb(initialRaw)}, ${kb(initialGzip)} gzipped`,
];
for (const file of lazy)
  lines.push(
    `[build-admin]   loaded on demand: ${relative(file)} ${kb(outputs[file].bytes)}, ${kb(await gzipSize(file))} gzipped`,
  );
console.log(lines.join('\n'));
