import type { Reporter, TestModule } from 'vitest/node';
import type { ReliabilityRow } from './tally.js';

const COLUMNS: Array<[keyof ReliabilityRow, string]> = [
  ['section', 'section'],
  ['load', 'load held'],
  ['faults', 'faults survived'],
  ['inputs', 'inputs tried'],
  ['writesLost', 'writes lost'],
  ['serverErrors', '500s seen'],
];

/**
 * Prints the reliability table after a run that included test/reliability: one row per section
 * (summed over its tests, from each test's `meta.reliability`), and a total. Silent otherwise.
 */
export default class ReliabilityTableReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = new Map<string, ReliabilityRow>();
    let failed = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const row = test.meta().reliability;
        if (!row) continue;
        if (test.result().state === 'failed') failed += 1;
        const sum = rows.get(row.section) ?? {
          section: row.section,
          load: 0,
          faults: 0,
          inputs: 0,
          writesLost: 0,
          serverErrors: 0,
        };
        sum.load += row.load;
        sum.faults += row.faults;
        sum.inputs += row.inputs;
        sum.writesLost += row.writesLost;
        sum.serverErrors += row.serverErrors;
        rows.set(row.section, sum);
      }
    }
    if (rows.size === 0) return;
    const sorted = [...rows.values()].sort((a, b) => a.section.localeCompare(b.section, 'en', { numeric: true }));
    const total: ReliabilityRow = { section: 'total', load: 0, faults: 0, inputs: 0, writesLost: 0, serverErrors: 0 };
    for (const row of sorted) {
      total.load += row.load;
      total.faults += row.faults;
      total.inputs += row.inputs;
      total.writesLost += row.writesLost;
      total.serverErrors += row.serverErrors;
    }
    process.stdout.write(
      `\n${formatTable([...sorted, total])}\n${failed > 0 ? `(${failed} reliability test(s) failed: their rows are partial)\n` : ''}\n`,
    );
  }
}

/** A Markdown table (it reads as plain text too, and pastes into the README as it is). */
export function formatTable(rows: ReliabilityRow[]): string {
  const cells = rows.map((row) =>
    COLUMNS.map(([key]) => (typeof row[key] === 'number' ? row[key].toLocaleString('en-US') : String(row[key]))),
  );
  const headers = COLUMNS.map(([, label]) => label);
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((line) => line[i]!.length)));
  const line = (values: string[]) =>
    `| ${values.map((value, i) => (i === 0 ? value.padEnd(widths[i]!) : value.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((width, i) => (i === 0 ? `${'-'.repeat(width + 1)}-` : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  return ['Reliability', '', line(headers), rule, ...cells.map(line)].join('\n');
}
