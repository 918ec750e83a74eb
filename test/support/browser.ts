import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Set to a Chrome or Chromium binary to use it instead of the Linux x64 build inside @sparticuz/chromium. */
export const CHROMIUM_PATH_VARIABLE = 'QUIRE_CHROMIUM_PATH';

// @sparticuz/chromium's flags are for AWS Lambda; these three would make the browser unlike an
// editor's: one process for every context, and no same-origin or mixed-content rules.
const LAMBDA_ONLY_ARGS = new Set(['--single-process', '--disable-web-security', '--allow-running-insecure-content']);

/**
 * The browser binary and its flags. The npm package unpacks its bundled (brotli) Chromium into the
 * temp folder on first use, with no network; global setup calls this once so parallel workers never
 * unpack it at the same time.
 */
export async function chromiumExecutable(): Promise<{ executablePath: string; args: string[] }> {
  const local = process.env[CHROMIUM_PATH_VARIABLE];
  if (local) return { executablePath: local, args: [] };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `The Chromium inside @sparticuz/chromium runs on Linux x64 only; ` +
        `set ${CHROMIUM_PATH_VARIABLE} to a local Chrome or Chromium to run the browser tests on ${process.platform}/${process.arch}.`,
    );
  }
  const { default: packaged } = await import('@sparticuz/chromium');
  const executablePath = await packaged.executablePath();
  return { executablePath, args: packaged.args.filter((arg) => !LAMBDA_ONLY_ARGS.has(arg)) };
}

/** A headless Chromium; close it in `afterAll`. Separate contexts (`browser.newContext()`) are separate editors. */
export async function launchBrowser(): Promise<Browser> {
  const { executablePath, args } = await chromiumExecutable();
  return chromium.launch({ executablePath, args, headless: true, timeout: 60_000 });
}

/**
 * Collects what went wrong in a page from now on: uncaught exceptions, console errors and failed
 * requests. Read it in an assertion (`expect(errors()).toEqual([])`) so a broken screen says why.
 */
export function collectPageErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'unknown';
    // Leaving a page cancels what it still had open (the /events stream above all): not a failure.
    if (reason === 'net::ERR_ABORTED') return;
    errors.push(`request failed: ${request.method()} ${request.url()} (${reason})`);
  });
  return () => [...errors];
}

let axeSource: Promise<string> | undefined;
const readAxeSource = () => {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
};

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: unknown[]; html: string; failureSummary?: string }>;
}

/** One readable paragraph per violation: rule, impact, what to fix, and each offending element. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((violation) =>
      [
        `[${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})`,
        ...violation.nodes.map(
          (node) =>
            `    at ${node.target.join(' ')}: ${node.html.slice(0, 200)}` +
            (node.failureSummary ? `\n      ${node.failureSummary.replace(/\n/g, '\n      ')}` : ''),
        ),
      ].join('\n'),
    )
    .join('\n\n');
}

/**
 * Runs axe-core on the page as it is now and throws, listing them readably, if it finds serious or
 * critical violations; returns every violation (minor and moderate ones too) for the caller to log.
 * `exclude`: CSS selectors of parts to leave out (e.g. a third-party widget).
 */
export async function checkA11y(
  page: Page,
  options: { exclude?: string[]; label?: string } = {},
): Promise<AxeViolation[]> {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.addScriptTag({ content: await readAxeSource() });
  const violations = await page.evaluate(async (exclude) => {
    const axe = (
      window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const context =
      exclude.length > 0 ? { include: [['html']], exclude: exclude.map((selector) => [selector]) } : document;
    const result = await axe.run(context, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, helpUrl, nodes }) => ({
      id,
      impact: impact ?? null,
      help,
      helpUrl,
      nodes: nodes.map(({ target, html, failureSummary }) => ({ target, html, failureSummary })),
    }));
  }, options.exclude ?? []);
  const blocking = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  if (blocking.length > 0) {
    throw new Error(
      `axe-core found ${blocking.length} serious or critical accessibility violation(s)${options.label ? ` on ${options.label}` : ''} ` +
        `at ${page.url()}:\n\n${describeViolations(blocking)}`,
    );
  }
  return violations;
}

/**
 * Saves a PNG of what the viewport shows (set its size with `page.setViewportSize`; `fullPage: true`
 * for the whole scrollable page, where sticky bars land mid-page) at `file`, creating its folder; returns the path.
 */
export async function screenshot(page: Page, file: string, options: { fullPage?: boolean } = {}): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false, type: 'png' });
  return file;
}
