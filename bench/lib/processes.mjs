import { spawn } from 'node:child_process';
import { childEnv } from '../../test/support/process.ts';

/**
 * Child processes of the bench (servers, builds, floor scripts), each in its own process group
 * so that stopping one also reaps whatever it started. Every group still alive is killed when
 * the bench exits, is interrupted (Ctrl-C) or is terminated (the smoke test's timeout).
 */
const live = new Set();

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

export function killAll() {
  for (const pid of live) killGroup(pid, 'SIGKILL');
  live.clear();
}

process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    killAll();
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}

// The same environment the tests give their servers (test/support/process.ts): without what
// vitest added (Astro >= 7.0.6 turns its dev middleware off on VITEST), colours and telemetry off.
export { childEnv };

/** Starts a child in its own process group, capturing its output (the last 256 KB of it). */
export function startProcess(command, args, { cwd, env = childEnv() }) {
  const started = performance.now();
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not start ${command} ${args.join(' ')}`);
  const pid = child.pid;
  live.add(pid);
  let output = '';
  const collect = (chunk) => {
    output += chunk.toString();
    if (output.length > 512 * 1024) output = output.slice(-256 * 1024);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(pid);
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', (error) => {
      output += `\n[spawn error] ${error.message}\n`;
      live.delete(pid);
      resolve('spawn-error');
    });
  });
  let stopping;
  return {
    pid,
    started,
    exited,
    logs: () => output,
    stop() {
      stopping ??= (async () => {
        killGroup(pid, 'SIGTERM');
        await Promise.race([exited, unrefTimeout(5_000)]);
        killGroup(pid, 'SIGKILL');
        await Promise.race([exited, unrefTimeout(2_000)]);
        live.delete(pid);
      })();
      return stopping;
    },
  };
}

/** Runs a command to completion within `timeoutMs`; resolves with its exit code, output and duration. */
export async function runProcess(command, args, { cwd, env, timeoutMs }) {
  const proc = startProcess(command, args, { cwd, env });
  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(resolve, timeoutMs, 'timeout');
  });
  const result = await Promise.race([proc.exited, timedOut]);
  const ms = performance.now() - proc.started;
  clearTimeout(timer);
  await proc.stop();
  if (result === 'timeout') return { code: -1, ms, output: `${proc.logs()}\n[bench] timed out after ${timeoutMs} ms` };
  return { code: typeof result === 'number' ? result : -1, ms, output: proc.logs() };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const unrefTimeout = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** Whether a process of this id is running (EPERM: it is, as another user's). */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
