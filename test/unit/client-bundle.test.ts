import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

describe('the typed client in a browser bundle', () => {
  it('bundles for the browser from the endpoint declarations alone: no Node built-in, no server code', async () => {
    const result = await build({
      entryPoints: [path.join(REPO_ROOT, 'src', 'client', 'index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(
      inputs.filter(
        (input) => input.startsWith('node:') || /src\/(content\/store|http\/(app|register|openapi))\b/.test(input),
      ),
    ).toEqual([]);
    expect(inputs.some((input) => input.endsWith('src/http/endpoints.ts'))).toBe(true);
  });
});
