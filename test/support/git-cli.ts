import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs the real git binary (to set up repositories, act as another editor and check results),
 * with no user or system config so the machine's settings do not leak in.
 */
export async function gitCli(
  cwd: string,
  args: string[],
  options: { home?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    timeout: 30_000,
    maxBuffer: 16 * 1024 * 1024,
    env: {
      PATH: process.env.PATH,
      HOME: options.home ?? cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'Other Editor',
      GIT_AUTHOR_EMAIL: 'other@example.test',
      GIT_COMMITTER_NAME: 'Other Editor',
      GIT_COMMITTER_EMAIL: 'other@example.test',
      ...options.env,
    },
  });
  return stdout;
}
