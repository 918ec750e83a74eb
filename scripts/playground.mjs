#!/usr/bin/env node
// Runs the playground: `npm run playground` builds the package, then runs this script.
//
// 1. On the first run, copies the sample content (playground/content) into playground/.content,
//    which is git-ignored, so that edits made through the API never touch the committed samples.
// 2. Starts `astro dev --root playground` with CONTENT_PATH pointing at that copy.
// 3. Waits for the API to answer and prints where to find it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const playgroundRoot = path.join(repoRoot, 'playground');
const sampleContent = path.join(playgroundRoot, 'content');
const workingContent = path.join(playgroundRoot, '.content');
const astroBin = path.join(repoRoot, 'node_modules', '.bin', 'astro');
const host = '127.0.0.1';
const port = process.env.PORT ? Number(process.env.PORT) : 4321;
const prefix = '/__cms/api';
const adminPath = '/__cms';
const siteUrl = `http://${host}:${port}`;
const apiUrl = `${siteUrl}${prefix}`;
const READY_TIMEOUT_MS = 60_000;

function fail(message) {
  console.error(`\n[playground] ${message}\n`);
  process.exit(1);
}

// ---------------------------------------------------------------- preflight
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  fail(
    `Node ${process.versions.node} is too old: Astro needs Node >= 22.12.\n` +
      '  Run `npm run playground`: the repo pins node@22 as a devDependency and npm scripts use it.',
  );
}
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  fail(`PORT=${process.env.PORT} is not a port number. Use e.g. PORT=4322 npm run playground.`);
}
if (!fs.existsSync(astroBin)) {
  fail('Astro is not installed in this repo. Run `npm install` first.');
}
if (!fs.existsSync(path.join(repoRoot, 'dist', 'integration.js'))) {
  fail(
    'The package is not built (dist/integration.js is missing). Run `npm run playground`, which builds first, or `npm run build`.',
  );
}

await new Promise((resolve) => {
  const probe = net.createServer();
  probe.once('error', (error) => {
    if (error.code === 'EADDRINUSE') {
      fail(
        `Port ${port} on ${host} is already in use (another playground or dev server?).\n` +
          `  Stop it, or choose another port: PORT=${port + 1} npm run playground`,
      );
    }
    fail(`Cannot listen on ${host}:${port}: ${error.message}`);
  });
  probe.listen(port, host, () => probe.close(resolve));
});

// ---------------------------------------------------------------- content
if (!fs.existsSync(workingContent)) {
  if (!fs.existsSync(sampleContent)) fail(`The sample content is missing: ${sampleContent}`);
  fs.cpSync(sampleContent, workingContent, { recursive: true });
  await commitSamples(workingContent);
  console.log(
    `[playground] First run: copied the sample content into ${path.relative(repoRoot, workingContent)}/ ` +
      `(a git repository of its own, so the git endpoints work there)`,
  );
} else {
  console.log(
    `[playground] Reusing ${path.relative(repoRoot, workingContent)}/ (your edits are kept).` +
      ' To start over with the sample content, delete playground/.content and run again.',
  );
}

/** Makes the working copy its own repository with the samples as the first commit. */
/**
 * The sample content as a repository of its own. Earlier versions of some sample files
 * (playground/history, same paths) are committed first, so the review desk can show a translator
 * what changed since their translation was reviewed (the German "about" page).
 */
async function commitSamples(dir) {
  const { default: git } = await import('isomorphic-git');
  const author = { name: 'Quire playground', email: 'playground@localhost' };
  await git.init({ fs, dir, defaultBranch: 'main' });
  const history = path.join(playgroundRoot, 'history');
  if (fs.existsSync(history)) {
    fs.cpSync(history, dir, { recursive: true });
    await git.add({ fs, dir, filepath: '.' });
    await git.commit({ fs, dir, message: 'Earlier sample content', author });
    fs.cpSync(sampleContent, dir, { recursive: true });
  }
  await git.add({ fs, dir, filepath: '.' });
  await git.commit({
    fs,
    dir,
    message: 'Sample content',
    author,
  });
}

// ---------------------------------------------------------------- astro dev
const env = { ...process.env, CONTENT_PATH: workingContent, PORT: String(port) };
delete env.VITEST;

let childExited = false;
let stopping = false;
let ready = false;

const child = spawn(process.execPath, [astroBin, 'dev', '--root', playgroundRoot], {
  cwd: repoRoot,
  env,
  stdio: 'inherit',
});

child.on('error', (error) => fail(`Could not start astro dev: ${error.message}`));
child.on('exit', (code, signal) => {
  childExited = true;
  if (!ready && !stopping) {
    fail(
      `astro dev stopped before the API answered (${signal ?? `exit code ${code}`}). See its output above.\n` +
        '  If it says another dev server is already running, stop that one first (Ctrl-C in its terminal).',
    );
  }
  process.exit(code ?? (signal ? 0 : 1));
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (childExited) process.exit(0);
    // A second Ctrl-C stops a dev server that does not shut down by itself.
    child.kill(stopping ? 'SIGKILL' : signal);
    stopping = true;
  });
}

// ---------------------------------------------------------------- wait for the API
const deadline = Date.now() + READY_TIMEOUT_MS;
let response;
while (!response) {
  if (childExited || stopping) break;
  try {
    response = await fetch(`${apiUrl}/content`, { signal: AbortSignal.timeout(5_000) });
  } catch {
    if (Date.now() > deadline) {
      console.error(
        `\n[playground] ${apiUrl}/content did not answer within ${READY_TIMEOUT_MS / 1000} s.` +
          ' See the astro output above; press Ctrl-C to stop.',
      );
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

if (response) {
  ready = true;
  if (!response.ok) {
    const body = (await response.text()).slice(0, 500);
    console.warn(`\n[playground] The API answered GET ${prefix}/content with ${response.status}:\n  ${body}\n`);
  }
  const line = '─'.repeat(64);
  console.log(
    [
      '',
      line,
      '  Quire playground is running',
      '',
      `  Admin    ${siteUrl}${adminPath}       (edit the content here)`,
      `  Site     ${siteUrl}/            (the marketing site; /de and /fr for its other locales)`,
      `  Docs     ${siteUrl}/docs`,
      `  Overview ${siteUrl}/playground  (every page by site and locale, moved pages, API links)`,
      `  API      ${apiUrl}`,
      `  Content  ${path.relative(repoRoot, workingContent)}/  (delete it to reset to the samples)`,
      '',
      '  Try:',
      `    curl ${apiUrl}/content`,
      `    curl '${apiUrl}/content/needs-review?locale=de'`,
      '',
      '  Press Ctrl-C to stop.',
      line,
      '',
    ].join('\n'),
  );
}
