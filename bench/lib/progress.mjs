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

export function phase(name) {
  log(`── ${name}`);
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
