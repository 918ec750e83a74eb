import type { PreviewOption } from '../sites/preview-url.js';

/** What the integration tells the "Edit this page" toolbar app once it starts (it cannot read the options itself). */
export interface ToolbarSettings {
  /** The API prefix, e.g. `/__cms/api`. */
  prefix: string;
  /** Where the admin lives, e.g. `/__cms`. */
  adminPath: string;
  /** The `admin.preview` option, or null. */
  preview: PreviewOption;
}

export const TOOLBAR_APP_ID = 'astro-quire';
export const SETTINGS_EVENT = 'astro-quire:settings';
