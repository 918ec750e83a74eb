import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:stress`: only the reliability suite, with its heavier variants (QUIRE_STRESS=1):
// more property runs and race rounds, more crashes, longer load. Not part of `npm test`.
// (Spread, not mergeConfig: merging would add to `include` instead of replacing it.)
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/reliability/**/*.test.ts'],
    env: { QUIRE_STRESS: '1' },
    testTimeout: 900_000,
  },
});
