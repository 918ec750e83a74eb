import type { PreviewOption } from '../../sites/preview-url.js';

/** What the shell page tells the app (the JSON in `#quire-admin-config`). */
export interface AdminConfig {
  /** Where the admin lives, e.g. `/__cms`. */
  basePath: string;
  /** Where the API lives, e.g. `/__cms/api`. */
  apiPrefix: string;
  mode: 'dev' | 'production';
  /** The `admin.preview` URL template, null for the built-in rule (see `previewUrl`). */
  preview: PreviewOption;
  /** Whether the content root was in a git repository when the page loaded (the badge asks git only then). */
  git: boolean;
}

export function readConfig(): AdminConfig {
  const element = document.getElementById('quire-admin-config');
  const given = element?.textContent ? (JSON.parse(element.textContent) as Partial<AdminConfig>) : {};
  return {
    basePath: (given.basePath ?? '/__cms').replace(/\/+$/, ''),
    apiPrefix: given.apiPrefix ?? '/__cms/api',
    mode: given.mode === 'production' ? 'production' : 'dev',
    preview: given.preview ?? null,
    git: given.git ?? true,
  };
}
