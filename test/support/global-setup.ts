import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { chromiumExecutable } from './browser.js';
import { REPO_ROOT, RUNS_DIR } from './paths.js';

const run = promisify(execFile);

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's scratch folder: `package/` (the packed astro-quire, as `npm install` would give it) and `sites/`. */
    quireRunDir: string;
  }
}

/**
 * Packs the package once per run, exactly as it would be published, so every test site
 * installs the tarball's contents rather than the source tree (this catches a missing file in `files`
 * or a broken `exports` map). `npm run build` must have run first (`npm test` does it).
 */
export default async function setup(project: TestProject): Promise<void> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) {
    throw new Error(
      `Tests need Node >= 22 (Astro 7 does); this is ${process.version}. Run via npm scripts or PATH=node_modules/.bin:$PATH.`,
    );
  }
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'integration.js'))) {
    throw new Error('dist/integration.js is missing: run `npm run build` before vitest (`npm test` does both).');
  }

  await removeFinishedRuns();
  const runDir = path.join(RUNS_DIR, String(process.pid));
  await rm(runDir, { recursive: true, force: true });
  await mkdir(path.join(runDir, 'sites'), { recursive: true });

  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', runDir], {
    cwd: REPO_ROOT,
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
  const tarball = path.join(runDir, packed.filename);
  // npm tarballs have a single top-level `package/` folder, so this yields <runDir>/package.
  await run('tar', ['-xzf', tarball, '-C', runDir], { timeout: 60_000 });
  await rm(tarball, { force: true });

  // Unpacks the browser for the browser tests once, before workers could race to do it. Where there
  // is none (another platform without QUIRE_CHROMIUM_PATH), the browser tests themselves say why.
  await chromiumExecutable().catch(() => undefined);
  project.provide('quireRunDir', runDir);
}

/** Deletes the folders of earlier runs whose vitest process is gone; kept until then so a failed run can be inspected. */
async function removeFinishedRuns(): Promise<void> {
  const entries = await readdir(RUNS_DIR).catch(() => [] as string[]);
  for (const entry of entries) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) continue;
    await rm(path.join(RUNS_DIR, entry), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
