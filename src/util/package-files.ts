import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * A file of the installed package's `dist/`, found from wherever this code runs: the package
 * itself in `astro dev`, or a chunk of the built server, whose node_modules hold the package.
 */
export function packageDistFile(...segments: string[]): string {
  const packageJson = createRequire(import.meta.url).resolve('astro-quire/package.json');
  return path.join(path.dirname(packageJson), 'dist', ...segments);
}
