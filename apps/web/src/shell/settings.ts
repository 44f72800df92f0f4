import { DEFAULT_PRIMARY_COLOR, PRESET_COLORS } from '@crdp/core';

/** Display settings of the dev-only settings drawer (spec 000 section 3). */
export interface DisplaySettings {
  primaryColor: string;
  navTheme: 'dark' | 'light';
  layout: 'sidemenu' | 'topmenu';
  contentWidth: 'Fixed' | 'Fluid';
  fixedHeader: boolean;
  fixSiderbar: boolean;
  autoHideHeader: boolean;
  colorWeak: boolean;
  multiTab: boolean;
}

export const DEFAULT_SETTINGS: DisplaySettings = {
  primaryColor: DEFAULT_PRIMARY_COLOR,
  navTheme: 'dark',
  layout: 'sidemenu',
  contentWidth: 'Fixed',
  // A long menu scrolls on its own and the header stays: what people expect of a back office.
  fixedHeader: true,
  fixSiderbar: true,
  autoHideHeader: false,
  colorWeak: false,
  multiTab: true,
};

/**
 * Applies the rules of spec 000 section 4: the fixed side menu is forced off in the top-menu
 * layout; auto-hide needs a fixed header; Fluid width is offered only in the top-menu layout.
 * Unknown or malformed stored values fall back to the defaults.
 */
export function normalizeSettings(input: Partial<Record<keyof DisplaySettings, unknown>>): DisplaySettings {
  const bool = (k: keyof DisplaySettings) =>
    typeof input[k] === 'boolean' ? (input[k] as boolean) : (DEFAULT_SETTINGS[k] as boolean);
  const color = typeof input.primaryColor === 'string' ? input.primaryColor.toUpperCase() : '';
  const s: DisplaySettings = {
    primaryColor: (PRESET_COLORS as readonly string[]).includes(color)
      ? color
      : DEFAULT_SETTINGS.primaryColor,
    navTheme: input.navTheme === 'light' ? 'light' : 'dark',
    layout: input.layout === 'topmenu' ? 'topmenu' : 'sidemenu',
    contentWidth: input.contentWidth === 'Fluid' ? 'Fluid' : 'Fixed',
    fixedHeader: bool('fixedHeader'),
    fixSiderbar: bool('fixSiderbar'),
    autoHideHeader: bool('autoHideHeader'),
    colorWeak: bool('colorWeak'),
    multiTab: bool('multiTab'),
  };
  if (s.layout === 'topmenu') s.fixSiderbar = false;
  else s.contentWidth = 'Fixed';
  if (!s.fixedHeader) s.autoHideHeader = false;
  return s;
}

/** Changes one setting and re-applies the rules. */
export function changeSetting<K extends keyof DisplaySettings>(
  s: DisplaySettings,
  key: K,
  value: DisplaySettings[K],
): DisplaySettings {
  return normalizeSettings({ ...s, [key]: value });
}

/** Which switches the drawer offers in the current state. */
export function settingOptions(s: DisplaySettings) {
  return {
    fluidWidth: s.layout === 'topmenu',
    fixSiderbar: s.layout === 'sidemenu',
    autoHideHeader: s.fixedHeader,
  };
}

/** Header auto-hide (spec 000 section 4): hidden after scrolling down past 300 px, back on scrolling up. */
export function headerVisibleAfterScroll(previousTop: number, top: number, threshold = 300): boolean {
  if (top <= threshold) return true;
  return top < previousTop;
}

/**
 * Whether the sidebar is collapsed for a device mode: a tablet closes it; a desktop keeps the
 * user's stored choice; on a phone the menu is a drawer, closed until the menu button opens it
 * (an open drawer would cover the page on every navigation).
 */
export function sidebarCollapsedFor(mode: 'mobile' | 'tablet' | 'desktop', stored: boolean): boolean {
  if (mode === 'desktop') return stored;
  return true;
}
