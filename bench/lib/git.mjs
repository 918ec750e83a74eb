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

/** The content root as its own repository: everything in one commit. */
export async function commitAll(root) {
  await git(root, ['init', '-q', '-b', 'main']);
  await git(root, ['add', '-A']);
  await git(root, ['commit', '-q', '-m', 'Bench content']);
}

/** Rewrites the title of the default locale of `count` JSON pages, as an editor outside Quire would. */
export async function modifyPages(root, catalog, count) {
  const pages = catalog.items.filter((item) => item.kind === 'page' && item.site === 'shop').slice(-count);
  for (const item of pages) {
    const file = path.join(root, item.locales.en.file);
    const data = JSON.parse(await fs.readFile(file, 'utf8'));
    data.meta.title = `${data.meta.title} (edited)`;
    data.modified = new Date().toISOString();
    await fs.writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
  }
  return pages.map((item) => item.id);
}
