import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** A long-running child (a dev or production server) in its own process group. */
export interface ManagedProcess {
  readonly pid: number;
  /** Everything the child wrote to stdout and stderr so far, interleaved in arrival order. */
  logs(): string;
  /** Resolves with the exit code (or signal name) once the child has exited. */
  readonly exited: Promise<number | string>;
  /** Terminates the whole process group; safe to call twice. */
  stop(): Promise<void>;
  /** SIGKILLs the whole process group at once (a crash: no exit handlers run) and waits for the exit. */
  kill(): Promise<void>;
}

// Process groups still alive, so a worker that dies mid-run does not leave servers behind.
const live = new Set<number>();
process.once('exit', () => {
  for (const pid of live) killGroup(pid, 'SIGKILL');
});

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

// Variables the vitest worker adds to process.env (Vite's import.meta.env mirror and its own markers).
const VITEST_ADDED = new Set(['NODE_ENV', 'TEST', 'MODE', 'DEV', 'PROD', 'SSR', 'BASE_URL', 'FORCE_TTY', 'COLOR']);

/**
 * The environment for Astro and the built server: the test process's, minus what vitest added.
 * VITEST must go because Astro >= 7.0.6 disables its dev middleware when it sees it; NODE_ENV=test,
 * MODE, DEV, PROD... would leak into Vite's mode and the server's import.meta.env.
 * Colours off so logs can be matched as plain text; telemetry off (loopback-only network).
 */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key === 'VITEST' || key.startsWith('VITEST_') || VITEST_ADDED.has(key)) delete env[key];
  }
  Object.assign(env, {
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ASTRO_TELEMETRY_DISABLED: '1',
    // Anything the child spawns by name (`node`) must be the same Node 22 that runs the tests.
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
  });
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Starts `command` detached (own process group) with its output captured. */
export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): ManagedProcess {
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${command} ${args.join(' ')}`);
  const pid = child.pid;
  live.add(pid);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', (error) => {
      output += `\n[spawn error] ${error.message}\n`;
      resolve('spawn-error');
    });
  });
  let stopping: Promise<void> | undefined;
  return {
    pid,
    logs: () => output,
    exited,
    stop() {
      stopping ??= (async () => {
        killGroup(pid, 'SIGTERM');
        const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, 5_000, 'timeout').unref());
        await Promise.race([exited, timeout]);
        // Also reaps helpers the leader left behind (e.g. esbuild), whether or not SIGTERM sufficed.
        killGroup(pid, 'SIGKILL');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
        live.delete(pid);
      })();
      return stopping;
    },
    async kill() {
      killGroup(pid, 'SIGKILL');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      live.delete(pid);
    },
  };
}

/** Runs a command to completion (bounded), returning its exit code and combined output. */
export async function runProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number; output: string }> {
  const proc = startProcess(command, args, options);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(resolve, options.timeoutMs, 'timeout');
  });
  const result = await Promise.race([proc.exited, timedOut]);
  clearTimeout(timer);
  await proc.stop();
  if (result === 'timeout') {
    return { code: -1, output: `${proc.logs()}\n[test harness] timed out after ${options.timeoutMs} ms` };
  }
  return { code: typeof result === 'number' ? result : -1, output: proc.logs() };
}
