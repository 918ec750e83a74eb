/**
 * Terminal progress: phase headings and step lines stamped with the time since the bench
 * started; counters redraw one line in place on a terminal and print every few seconds when
 * the output is a pipe or a file (CI, the smoke test).
 */
const started = performance.now();
const tty = Boolean(process.stdout.isTTY);
let openLine = false;

const stamp = () => `[${((performance.now() - started) / 1000).toFixed(1).padStart(6)}s]`;

function closeLine() {
  if (openLine) process.stdout.write('\n');
  openLine = false;
}

export function log(message) {
  closeLine();
  process.stdout.write(`${stamp()} ${message}\n`);
}

const phases = [];

export function phase(name) {
  phases.push({ name, started: performance.now() });
  log(`── ${name}`);
}

/** Seconds each phase took so far (one that ran twice, added up), for the results. */
export function phaseSeconds() {
  const seconds = {};
  for (const [i, { name, started }] of phases.entries()) {
    const ended = phases[i + 1]?.started ?? performance.now();
    seconds[name] = Number(((seconds[name] ?? 0) + (ended - started) / 1000).toFixed(1));
  }
  return seconds;
}

/** A count towards `total`; `tick(done)` as often as you like, `done()` at the end. */
export function counter(label, total) {
  let last = 0;
  const show = (done) => {
    if (tty) {
      process.stdout.write(`\r${stamp()}    ${label}: ${done}/${total}`);
      openLine = true;
    } else {
      log(`   ${label}: ${done}/${total}`);
    }
  };
  return {
    tick(done) {
      const now = performance.now();
      if (now - last >= (tty ? 100 : 3_000)) {
        last = now;
        show(done);
      }
    },
    done() {
      show(total);
      closeLine();
    },
  };
}

/**
 * Runs `task`, printing `label` with the time it has taken every 15 s while it lasts (a long step
 * without a count of its own, such as git adding 300k files), and once at the end.
 */
export async function timed(label, task) {
  const begun = performance.now();
  const seconds = () => `${((performance.now() - begun) / 1000).toFixed(1)} s`;
  const beat = setInterval(() => log(`   ${label}: still running after ${seconds()}`), 15_000);
  try {
    return await task();
  } finally {
    clearInterval(beat);
    log(`   ${label}: ${seconds()}`);
  }
}
