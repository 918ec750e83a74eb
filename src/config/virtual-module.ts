import type { ResolvedOptions } from './resolve.js';

export const VIRTUAL_CONFIG_ID = 'virtual:astro-quire/config';
const RESOLVED_ID = `\0${VIRTUAL_CONFIG_ID}`;

/** Hands the resolved options to the injected route, the way @astrojs/node hands its own. */
export function configPlugin(options: ResolvedOptions) {
  return {
    name: 'astro-quire:config',
    resolveId: (id: string) => (id === VIRTUAL_CONFIG_ID ? RESOLVED_ID : undefined),
    load: (id: string) => (id === RESOLVED_ID ? `export default ${JSON.stringify(options)};` : undefined),
  };
}
