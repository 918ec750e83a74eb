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
  'cold-start-stall',
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
  'list-under-writes',
  'rss-steady',
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

  it('completes and writes RESULTS.md and results/100.json with every measure', {
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
    // Generated, or taken from the cache an earlier run of this size made.
    expect(run.output).toMatch(/── generate content|from the cache 100-7-/);
    expect(run.output).toContain('hard links to the cache');

    const results = JSON.parse(await readFile(path.join(out, 'results', '100.json'), 'utf8'));
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
    const byId = (id: string) => results.measures.find((row: { id: string }) => row.id === id);
    // The writes measure reads every acknowledged write back from disk, and is a share of the atomic-write floor.
    const writes = byId('writes');
    expect(writes.details.allOnDisk).toBe(true);
    expect(writes.target).toMatchObject({ kind: 'ratio-min', value: 0.5 });
    // The list under writes: timed against its floor while the writers wrote, every write on disk.
    const underWrites = byId('list-under-writes');
    expect(underWrites.status, underWrites.note).toBe('measured');
    expect(underWrites.target).toMatchObject({ kind: 'ratio-max', value: 2 });
    expect(underWrites.details.writes).toMatchObject({ allOnDisk: true, acknowledged: expect.any(Number) });
    expect(underWrites.details.writes.acknowledged).toBeGreaterThan(0);
    expect(underWrites.details.writes.writers).toHaveLength(8);
    const listed = new Set(byId('list-filtered').details.paths);
    expect(underWrites.details.paths.every((listPath: string) => listed.has(listPath))).toBe(true);
    // The cold start's stall is a bound in ms from the server's own monitor; the steady RSS is against the content.
    const stall = byId('cold-start-stall');
    expect(stall.status, stall.note).toBe('measured');
    expect(stall.target).toMatchObject({ kind: 'max', value: 50 });
    expect(stall.details).toMatchObject({ stallMs: expect.any(Number), samples: expect.any(Number) });
    expect(stall.details.samples).toBeGreaterThan(0);
    const steady = byId('rss-steady');
    expect(steady.status, steady.note).toBe('measured');
    expect(steady.target).toMatchObject({ kind: 'ratio-max', value: 1 });
    expect(steady.details.contentMB).toBeCloseTo(results.content.bytes / 1024 / 1024, 0);
    expect(steady.details.factor).toBe(2.5);
    expect(steady.details).toMatchObject({ idleSeconds: expect.any(Number), atEndMB: expect.any(Number) });
    expect(steady.floor.value).toBeCloseTo(steady.details.contentMB * steady.details.factor, 0);
    expect(results.phaseSeconds).toMatchObject({ 'cold start': expect.any(Number), writes: expect.any(Number) });
    // The admin list: every timed load found the list with the count the API gives, and the initial files were sized.
    const admin = byId('admin-list');
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
    expect(markdown).toContain('### Machine (100)');
    expect(markdown).toContain('## Every measure by size');
  });

  it('shows two sizes side by side with how each measure grows', async () => {
    expect(out, 'the smoke run above wrote results').not.toBe('');
    const smoke = JSON.parse(await readFile(path.join(out, 'results', '100.json'), 'utf8'));
    // A second size made from the first: every figure 5× (a 10× content, so sub-linear) except the writes, 20× slower.
    const larger = structuredClone(smoke);
    larger.size = 1000;
    for (const row of larger.measures)
      if (row.status === 'measured') row.quire.value = row.id === 'writes' ? row.quire.value / 20 : row.quire.value * 5;
    const twoSizes = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-sizes-'));
    try {
      const report = path.join(REPO_ROOT, 'bench', 'lib', 'report.mjs');
      const { writeResults } = await import(report);
      await writeResults(twoSizes, smoke);
      await writeResults(twoSizes, larger);
      const markdown = await readFile(path.join(twoSizes, 'RESULTS.md'), 'utf8');
      expect(markdown).toContain('| measure | target | 100: Quire | ratio | met? | 1k: Quire | ratio | met? |');
      expect(markdown).toContain('## Growth from 100 to 1k (10× the content)');
      const growth = markdown.split('## Growth from 100 to 1k')[1].split('\n## ')[0];
      for (const row of smoke.measures.filter((candidate: { status: string }) => candidate.status === 'measured')) {
        const line = growth.split('\n').find((text) => text.startsWith(`| ${row.measure.replaceAll('|', '\\|')} |`));
        expect(line, row.id).toBeDefined();
        if (row.quire.value > 0) expect(line, row.id).toContain(row.id === 'writes' ? '**no**' : '| yes |');
      }
    } finally {
      await rm(twoSizes, { recursive: true, force: true });
    }
  });
});
