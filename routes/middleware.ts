import type { MiddlewareHandler } from 'astro';
import options from 'virtual:astro-quire/config';
import { getServices } from '../src/services.js';

/** Answers a moved page's old pathname with a 301 to its current one, before the site renders. */
export const onRequest: MiddlewareHandler = async (context, next) => {
  const { pathname } = context.url;
  const isApi = pathname === options.prefix || pathname.startsWith(`${options.prefix}/`);
  if (context.isPrerendered || isApi || (context.request.method !== 'GET' && context.request.method !== 'HEAD')) return next();
  const target = await getServices(options).redirectFor(context.url);
  return target ? context.redirect(target, 301) : next();
};
