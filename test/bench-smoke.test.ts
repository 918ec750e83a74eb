import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './support/paths.js';
import { childEnv, runProcess } from './support/process.js';

/**
 * The benchmark's smoke run (`--size 100`), so the bench cannot rot: it must complete and write
 * well-formed results. Timings are never asserted; the bench itself reports them.
 */
const MEASURE_IDS = [
  'cold-start',
  'list-memory',
  'read-locale',
  'list-filtered',
  'needs-review',
  'untranslated',
  'asset-usage',
  'git-status',
  'git-status-stall',
  'review',
  'writes',
  'upload',
  'decap-list',
  'decap-read',
  'admin-list',
];
const RUN_TIMEOUT_MS = 540_000;

describe('bench smoke run', () => {
  let out = '';
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('completes and writes RESULTS.md and results.json with every measure', {
    timeout: RUN_TIMEOUT_MS + 60_000,
  }, async () => {
    out = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-smoke-'));
    // The package this test run packed, so the bench measures the same artifact as the other tests.
    const packageDir = path.join(inject('quireRunDir'), 'package');
    const run = await runProcess(
      process.execPath,
      ['bench/run.mjs', '--size', '100', '--out', out, '--package', packageDir],
      {
        cwd: REPO_ROOT,
        env: childEnv(),
        timeoutMs: RUN_TIMEOUT_MS,
      },
    );
    expect(run.code, run.output.slice(-6_000)).toBe(0);
    expect(run.output).toContain('── generate content');

    const results = JSON.parse(await readFile(path.join(out, 'results.json'), 'utf8'));
    expect(results).toMatchObject({ schema: 1, size: 100, packageVersion: expect.any(String) });
    expect(Number.isNaN(Date.parse(results.date))).toBe(false);
    expect(results.machine).toMatchObject({
      cpu: expect.any(String),
      cores: expect.any(Number),
      memoryBytes: expect.any(Number),
      node: expect.stringMatching(/^v\d+/),
    });
    expect(results.content).toMatchObject({ items: 100, files: expect.any(Number), assets: expect.any(Number) });
    expect(results.content.files).toBeGreaterThan(100);

    expect(results.measures.map((row: { id: string }) => row.id)).toEqual(MEASURE_IDS);
    for (const row of results.measures) {
      expect(row, row.id).toMatchObject({
        measure: expect.any(String),
        target: { kind: expect.any(String), text: expect.any(String) },
      });
      expect(['measured', 'skipped'], `${row.id}: ${row.note ?? ''}`).toContain(row.status);
      expect([true, false, null]).toContain(row.met);
      if (row.status === 'measured') {
        expect(row.quire, row.id).toMatchObject({
          value: expect.any(Number),
          unit: expect.any(String),
          label: expect.any(String),
        });
        if (row.floor !== null)
          expect(row.floor, row.id).toMatchObject({
            value: expect.any(Number),
            unit: expect.any(String),
            label: expect.any(String),
          });
        expect(row.ratio === null || typeof row.ratio === 'number').toBe(true);
      } else {
        expect(row.note, row.id).toMatch(/^n\/a: /);
      }
    }
    // The writes measure reads every acknowledged write back from disk.
    const writes = results.measures.find((row: { id: string }) => row.id === 'writes');
    expect(writes.details.allOnDisk).toBe(true);
    // The admin list: every timed load found the list with the count the API gives, and the initial files were sized.
    const admin = results.measures.find((row: { id: string }) => row.id === 'admin-list');
    expect(admin.status, admin.note).toBe('measured');
    expect(admin.target).toMatchObject({ kind: 'max', value: 1000 });
    expect(admin.details).toMatchObject({
      runs: results.settings.adminRuns,
      pages: expect.any(Number),
      countShown: `${admin.details.pages} items`,
      p50Ms: expect.any(Number),
      maxMs: expect.any(Number),
      initial: {
        jsGzipBytes: expect.any(Number),
        cssGzipBytes: expect.any(Number),
        allFetchedInManifest: true,
      },
    });
    expect(admin.details.pages).toBeGreaterThan(0);
    expect(admin.details.runsMs).toHaveLength(admin.details.runs);
    for (const rows of admin.details.rowsRendered) expect(rows).toBeGreaterThan(0);

    const markdown = await readFile(path.join(out, 'RESULTS.md'), 'utf8');
    expect(markdown).toContain('| measure | floor | Quire | ratio | target | met? |');
    for (const row of results.measures) expect(markdown).toContain(`| ${row.measure.replaceAll('|', '\\|')} |`);
    expect(markdown).toContain('## Machine');
  });
});
