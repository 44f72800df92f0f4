import { describe, expect, it } from 'vitest';
import {
  changeSetting,
  DEFAULT_SETTINGS,
  headerVisibleAfterScroll,
  normalizeSettings,
  settingOptions,
  sidebarCollapsedFor,
} from './settings';

describe('display settings rules', () => {
  it('defaults to blue, dark side menu, Fixed width', () => {
    expect(normalizeSettings({})).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.primaryColor).toBe('#1890FF');
  });

  it('forces the fixed side menu off in the top-menu layout', () => {
    const side = changeSetting(DEFAULT_SETTINGS, 'fixSiderbar', true);
    expect(side.fixSiderbar).toBe(true);
    const top = changeSetting(side, 'layout', 'topmenu');
    expect(top.fixSiderbar).toBe(false);
    expect(settingOptions(top).fixSiderbar).toBe(false);
  });

  it('offers Fluid width only in the top-menu layout', () => {
    expect(changeSetting(DEFAULT_SETTINGS, 'contentWidth', 'Fluid').contentWidth).toBe('Fixed');
    const top = changeSetting(changeSetting(DEFAULT_SETTINGS, 'layout', 'topmenu'), 'contentWidth', 'Fluid');
    expect(top.contentWidth).toBe('Fluid');
    expect(changeSetting(top, 'layout', 'sidemenu').contentWidth).toBe('Fixed');
  });

  it('lets auto-hide work only with a fixed header', () => {
    const loose = changeSetting(DEFAULT_SETTINGS, 'fixedHeader', false);
    expect(changeSetting(loose, 'autoHideHeader', true).autoHideHeader).toBe(false);
    const fixed = changeSetting(loose, 'fixedHeader', true);
    const hiding = changeSetting(fixed, 'autoHideHeader', true);
    expect(hiding.autoHideHeader).toBe(true);
    expect(changeSetting(hiding, 'fixedHeader', false).autoHideHeader).toBe(false);
  });

  it('ignores unknown colours and malformed stored values', () => {
    const s = normalizeSettings({ primaryColor: '#123456', navTheme: 'purple', multiTab: 'yes' });
    expect(s.primaryColor).toBe('#1890FF');
    expect(s.navTheme).toBe('dark');
    expect(s.multiTab).toBe(DEFAULT_SETTINGS.multiTab);
    expect(normalizeSettings({ primaryColor: '#722ed1' }).primaryColor).toBe('#722ED1');
  });
});

describe('header auto-hide', () => {
  it('hides after scrolling down past 300 px and shows on scrolling up', () => {
    expect(headerVisibleAfterScroll(0, 200)).toBe(true);
    expect(headerVisibleAfterScroll(290, 310)).toBe(false);
    expect(headerVisibleAfterScroll(600, 500)).toBe(true);
  });
});

describe('sidebar per device mode', () => {
  it('closes it on tablets and phones, keeps the stored state on desktops', () => {
    expect(sidebarCollapsedFor('tablet', false)).toBe(true);
    expect(sidebarCollapsedFor('mobile', false)).toBe(true);
    expect(sidebarCollapsedFor('desktop', false)).toBe(false);
    expect(sidebarCollapsedFor('desktop', true)).toBe(true);
  });
});
