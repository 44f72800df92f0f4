import { useSyncExternalStore } from 'react';
import { readStored, STORED, writeStored } from '../app/storage';
import { changeSetting, type DisplaySettings, normalizeSettings } from './settings';

let settings = normalizeSettings(readStored<Partial<DisplaySettings>>(STORED.settings, {}));
const listeners = new Set<() => void>();

export const getSettings = () => settings;

export function setSetting<K extends keyof DisplaySettings>(key: K, value: DisplaySettings[K]) {
  settings = changeSetting(settings, key, value);
  writeStored(STORED.settings, settings);
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const useSettings = () => useSyncExternalStore(subscribe, getSettings, getSettings);
