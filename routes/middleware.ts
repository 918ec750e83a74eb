import type { MiddlewareHandler } from 'astro';
import options from 'virtual:astro-quire/config';
import { contentSettled } from '../src/config/shared.js';
import { getServices } from '../src/services.js';

/**
 * Answers a moved page's old pathname with a 301 to its current one, before the site renders. In
 * dev, a page waits first for content changes still on their way into Astro's data store, so the
 * page requested after an API write shows it.
 */
export const onRequest: MiddlewareHandler = async (context, next) => {
  const { pathname } = context.url;
  const isApi = pathname === options.prefix || pathname.startsWith(`${options.prefix}/`);
  if (isApi) return next();
  if (options.mode === 'dev') await contentSettled();
  if (!options.redirects || context.isPrerendered || (context.request.method !== 'GET' && context.request.method !== 'HEAD')) return next();
  const target = await getServices(options).redirectFor(context.url);
  return target ? context.redirect(target, 301) : next();
};
