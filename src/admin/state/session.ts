import { computed, signal } from '@preact/signals';
import { type AuthUser, createQuireClient, type SitesConfig } from '../../client/index.js';
import { readConfig } from './config.js';

export const config = readConfig();
export const client = createQuireClient({ baseUrl: location.origin, prefix: config.apiPrefix });

export const sites = signal<SitesConfig | undefined>(undefined);
export const user = signal<AuthUser | undefined>(undefined);
/** Why the shell could not start (shown instead of the screens). */
export const startError = signal<unknown>(undefined);

const SITE_KEY = 'quire:site';
const LOCALE_KEY = 'quire:locale';

/** The site the browser and the create screen work in. */
export const siteName = signal<string>(localStorage.getItem(SITE_KEY) ?? '');
/** The locale the browser opens items in. */
export const localeCode = signal<string>(localStorage.getItem(LOCALE_KEY) ?? '');

export const siteNames = computed(() => Object.keys(sites.value?.sites ?? {}));
export const currentSite = computed(() => sites.value?.sites[siteName.value]);

/** The locales of a site (default first), or the global locales for global fragments and data. */
export function localesOf(site: string | undefined): string[] {
  const config = sites.value;
  if (!config) return [];
  const entry = site === undefined ? undefined : config.sites[site];
  if (!entry) return config.globalLocales;
  return [entry.defaultLocale, ...entry.locales.filter((locale) => locale !== entry.defaultLocale)];
}

export const defaultLocaleOf = (site: string | undefined) => localesOf(site)[0] ?? 'en';

export const siteLocales = computed(() => localesOf(siteName.value || undefined));

export function chooseSite(name: string) {
  siteName.value = name;
  localStorage.setItem(SITE_KEY, name);
  if (!siteLocales.value.includes(localeCode.value)) chooseLocale(siteLocales.value[0] ?? '');
}

export function chooseLocale(code: string) {
  localeCode.value = code;
  localStorage.setItem(LOCALE_KEY, code);
}

export async function startSession() {
  try {
    const [config, identity] = await Promise.all([client.sites.get(), client.auth.user()]);
    sites.value = config;
    user.value = identity;
    const names = Object.keys(config.sites);
    chooseSite(names.includes(siteName.value) ? siteName.value : (names[0] ?? ''));
  } catch (error) {
    startError.value = error;
  }
}
