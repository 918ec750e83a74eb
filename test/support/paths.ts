import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (/work/main). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Scratch space of the tests (gitignored). Inside the repo on purpose: Node finds astro & co. by walking up. */
export const WORK_DIR = path.join(REPO_ROOT, 'test', '.work');
/**
 * One folder per vitest run (`runs/<pid>`), holding `package/` (the extracted tarball) and
 * `sites/`. Per run, so two runs at once (two engineers, or `npm test` beside a single file)
 * never delete or overwrite each other's package or sites.
 */
export const RUNS_DIR = path.join(WORK_DIR, 'runs');
