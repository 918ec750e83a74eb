import type { TaskMeta } from 'vitest';

/** One row of the reliability table: what a test put the server through and what it saw. */
export interface ReliabilityRow {
  /** The table row this test adds to, e.g. "1 concurrency". */
  section: string;
  /** Requests completed while many clients ran at once. */
  load: number;
  /** Faults injected (kills, failing writes, read-only folders) after which every check held. */
  faults: number;
  /** Hostile or malformed inputs sent. */
  inputs: number;
  /** Acknowledged writes missing or different afterwards (must be 0). */
  writesLost: number;
  /** 5xx answers other than the WRITE_ERROR a disk fault asks for (must be 0). */
  serverErrors: number;
}

declare module 'vitest' {
  interface TaskMeta {
    reliability?: ReliabilityRow;
  }
}

/** Counts for one test, attached to its task so that the table reporter (main process) can add them up. */
export class Tally {
  readonly row: ReliabilityRow;

  constructor(
    section: string,
    private readonly meta: TaskMeta,
  ) {
    this.row = { section, load: 0, faults: 0, inputs: 0, writesLost: 0, serverErrors: 0 };
    meta.reliability = this.row;
  }

  /** Counts a response status: a 5xx is a server error unless the caller expected it. */
  status(status: number, expected5xx = false): void {
    if (status >= 500 && !expected5xx) this.row.serverErrors += 1;
  }

  add(field: Exclude<keyof ReliabilityRow, 'section'>, count = 1): void {
    this.row[field] += count;
    this.meta.reliability = this.row;
  }
}
