import options from 'virtual:astro-quire/config';
import type { APIRoute } from 'astro';
import { getServices } from '../src/services.js';

export const prerender = false;

// The address is read only when asked for: some adapters cannot tell it and throw.
export const ALL: APIRoute = (context) =>
  getServices(options).app.fetch(context.request, {
    get clientAddress() {
      return context.clientAddress;
    },
  });
