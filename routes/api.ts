import options from 'virtual:astro-quire/config';
import type { APIRoute } from 'astro';
import { getServices } from '../src/services.js';

export const prerender = false;

// The address is read only when asked for, and may be unknown: some adapters cannot tell it and
// throw (so does `astro dev` for a request that arrives while Vite re-optimizes dependencies).
export const ALL: APIRoute = (context) =>
  getServices(options).app.fetch(context.request, {
    get clientAddress() {
      try {
        return context.clientAddress;
      } catch {
        return undefined;
      }
    },
  });
