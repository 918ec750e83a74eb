import options from 'virtual:astro-quire/config';
import type { MiddlewareHandler } from 'astro';
import { getServices } from '../src/services.js';

/** Answers a moved page's old pathname with a 301 to its current one, before the site renders. */
export const onRequest: MiddlewareHandler = async (context, next) => {
  const { pathname } = context.url;
  const ownsPath = (base: string) => pathname === base || pathname.startsWith(`${base}/`);
  const isQuire = ownsPath(options.prefix) || (options.admin !== null && ownsPath(options.admin.path));
  if (context.isPrerendered || isQuire || (context.request.method !== 'GET' && context.request.method !== 'HEAD'))
    return next();
  const target = await getServices(options).redirectFor(context.url);
  return target ? context.redirect(target, 301) : next();
};
