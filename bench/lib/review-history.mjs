import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { git } from './git.mjs';

/** How many commits the reviewed item's default locale gets, and which of them German was reviewed at. */
export const REVIEW_HISTORY_COMMITS = 500;
const REVIEWED_AT = 10;

/** The default content at revision `n`: a visible change in each (the content etag changes every commit). */
function revision(file, n) {
  const next = structuredClone(file);
  const content = next.content;
  if (content.data) content.data.benchRevision = n;
  else if (content.visualData && typeof content.visualData === 'object')
    content.visualData = { ...content.visualData, benchRevision: n };
  else content.mdx = `${content.mdx ?? ''}\nRevision ${n}.\n`;
  return next;
}

const serialize = (file) => `${JSON.stringify(file, null, 2)}\n`;

/** Feeds a `git fast-import` stream: hundreds of commits in one process, in about a second. */
function fastImport(root, stream) {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['fast-import', '--quiet'], {
      cwd: root,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import failed: ${errors}`))));
    child.stdin.end(stream);
  });
}

/**
 * Gives one page with an inherited German locale a long history: its English file changes in
 * each of `REVIEW_HISTORY_COMMITS` commits, and German records the etag of revision 10, so the
 * review answer walks back through ~490 commits to find it. Returns the item's ID.
 */
export async function addReviewHistory(root, catalog, packageDir) {
  const { contentEtagOf } = await import(pathToFileURL(path.join(packageDir, 'dist/src/content/etag.js')).href);
  const item = catalog.items.find(
    (candidate) => candidate.kind === 'page' && candidate.locales.de?.state === 'inherited' && candidate.locales.en,
  );
  if (!item) throw new Error('no page with an inherited German locale to give a history');
  const enPath = item.locales.en.file;
  const dePath = item.locales.de.file;
  const en = JSON.parse(await fs.readFile(path.join(root, enPath), 'utf8'));
  const de = JSON.parse(await fs.readFile(path.join(root, dePath), 'utf8'));
  de.inheritance = { ...de.inheritance, inheritedEtag: contentEtagOf(revision(en, REVIEWED_AT).content) };

  const head = (await git(root, ['rev-parse', 'HEAD'])).output.trim();
  const start = Math.floor(Date.now() / 1000) - REVIEW_HISTORY_COMMITS * 60;
  const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  let stream = '';
  let last = '';
  for (let n = 1; n <= REVIEW_HISTORY_COMMITS; n++) {
    last = serialize(revision(en, n));
    stream += `commit refs/heads/main\ncommitter Quire Bench <bench@localhost> ${start + n * 60} +0000\n`;
    stream += data(`Revision ${n} of ${item.id}`);
    if (n === 1) stream += `from ${head}\n`;
    stream += `M 100644 inline ${enPath}\n${data(last)}`;
    if (n === REVIEWED_AT) stream += `M 100644 inline ${dePath}\n${data(serialize(de))}`;
    stream += '\n';
  }
  await fastImport(root, stream);
  await fs.writeFile(path.join(root, enPath), last);
  await fs.writeFile(path.join(root, dePath), serialize(de));
  await git(root, ['reset', '-q']);
  return item.id;
}
