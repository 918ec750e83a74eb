import fs from 'node:fs/promises';
import path from 'node:path';
import { childEnv, runProcess } from './processes.mjs';

const gitEnv = () =>
  childEnv({
    GIT_AUTHOR_NAME: 'Quire Bench',
    GIT_AUTHOR_EMAIL: 'bench@localhost',
    GIT_COMMITTER_NAME: 'Quire Bench',
    GIT_COMMITTER_EMAIL: 'bench@localhost',
    GIT_CONFIG_NOSYSTEM: '1',
  });

export async function git(cwd, args, timeoutMs = 300_000) {
  const result = await runProcess('git', args, { cwd, env: gitEnv(), timeoutMs });
  if (result.code !== 0)
    throw new Error(`git ${args.join(' ')} failed (${result.code}): ${result.output.slice(-2_000)}`);
  return result;
}

/** Adding and committing 300k files (a 100k run) takes minutes: 30 minutes is the bound of a step. */
const LONG_STEP_MS = 1_800_000;

/**
 * The content root as its own repository: everything in one commit. Git's automatic packing
 * (past 6,700 loose objects) runs in the foreground, so that it is done before anything is
 * measured rather than racing the measures in the background.
 */
export async function commitAll(root) {
  await git(root, ['init', '-q', '-b', 'main']);
  await git(root, ['add', '-A'], LONG_STEP_MS);
  await git(root, ['-c', 'gc.autoDetach=false', 'commit', '-q', '-m', 'Bench content'], LONG_STEP_MS);
}

/**
 * Brings the index's stat data up to date with files that are the same but were linked or copied
 * (their inode and ctime changed), so the first status does not hash every file again.
 */
export async function refreshIndex(root) {
  const result = await runProcess('git', ['update-index', '-q', '--refresh'], {
    cwd: root,
    env: gitEnv(),
    timeoutMs: LONG_STEP_MS,
  });
  // 1: some file differs from the index, which is what status is for.
  if (result.code !== 0 && result.code !== 1)
    throw new Error(`git update-index --refresh failed (${result.code}): ${result.output.slice(-2_000)}`);
}

/**
 * Rewrites the title of the default locale of `count` JSON pages, as an editor outside Quire
 * would, by rename: the old file may be a hard link into the content cache.
 */
export async function modifyPages(root, catalog, count) {
  const pages = catalog.items.filter((item) => item.kind === 'page' && item.site === 'shop').slice(-count);
  for (const item of pages) {
    const file = path.join(root, item.locales.en.file);
    const data = JSON.parse(await fs.readFile(file, 'utf8'));
    data.meta.title = `${data.meta.title} (edited)`;
    data.modified = new Date().toISOString();
    await fs.writeFile(`${file}.bench-edit`, `${JSON.stringify(data, null, 2)}\n`);
    await fs.rename(`${file}.bench-edit`, file);
  }
  return pages.map((item) => item.id);
}
