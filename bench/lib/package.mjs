import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { childEnv } from './processes.mjs';

const run = promisify(execFile);

async function newestMtime(entry) {
  const stat = await fs.stat(entry).catch(() => null);
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of await fs.readdir(entry)) newest = Math.max(newest, await newestMtime(path.join(entry, child)));
  return newest;
}

/**
 * The package as a user installs it: `npm pack` of the built repo, extracted into the run
 * folder (or an already extracted package given with --package, as the smoke test does with
 * the one its test run packed). Returns its folder and a warning when dist/ looks older than
 * the sources.
 */
export async function preparePackage({ repoRoot, workDir, packageDir }) {
  if (packageDir) {
    const resolved = path.resolve(packageDir);
    if (!existsSync(path.join(resolved, 'dist', 'integration.js')))
      throw new Error(`--package ${resolved} has no dist/integration.js`);
    return { dir: resolved, warning: undefined };
  }
  if (!existsSync(path.join(repoRoot, 'dist', 'integration.js'))) {
    throw new Error(
      'dist/integration.js is missing: run `npm run build` first (if another build was running, wait for it and rerun).',
    );
  }
  const sources = Math.max(
    ...(await Promise.all(['src', 'routes', 'integration.ts'].map((entry) => newestMtime(path.join(repoRoot, entry))))),
  );
  const built = await newestMtime(path.join(repoRoot, 'dist'));
  const warning =
    sources > built
      ? 'dist/ is older than src/: the bench measures the last build; run `npm run build` to measure the current sources.'
      : undefined;

  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', workDir], {
    cwd: repoRoot,
    env: childEnv(),
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout);
  const tarball = path.join(workDir, packed.filename);
  await run('tar', ['-xzf', tarball, '-C', workDir], { timeout: 60_000 });
  await fs.rm(tarball, { force: true });
  return { dir: path.join(workDir, 'package'), warning };
}
