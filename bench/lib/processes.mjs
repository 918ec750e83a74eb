import { spawn } from 'node:child_process';
import path from 'node:path';

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

// What a vitest worker adds to process.env; Astro >= 7.0.6 turns its dev middleware off on VITEST,
// and NODE_ENV=test / MODE / DEV / PROD would leak into Vite's mode (see test/support/process.ts).
const VITEST_ADDED = new Set(['NODE_ENV', 'TEST', 'MODE', 'DEV', 'PROD', 'SSR', 'BASE_URL', 'FORCE_TTY', 'COLOR']);

/** This process's environment without what vitest added, colours and telemetry off, plus `extra`. */
export function childEnv(extra = {}) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key === 'VITEST' || key.startsWith('VITEST_') || VITEST_ADDED.has(key)) delete env[key];
  }
  Object.assign(env, {
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ASTRO_TELEMETRY_DISABLED: '1',
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
  });
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

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
  const timedOut = new Promise((resolve) => { timer = setTimeout(resolve, timeoutMs, 'timeout'); });
  const result = await Promise.race([proc.exited, timedOut]);
  const ms = performance.now() - proc.started;
  clearTimeout(timer);
  await proc.stop();
  if (result === 'timeout') return { code: -1, ms, output: `${proc.logs()}\n[bench] timed out after ${timeoutMs} ms` };
  return { code: typeof result === 'number' ? result : -1, ms, output: proc.logs() };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const unrefTimeout = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());
