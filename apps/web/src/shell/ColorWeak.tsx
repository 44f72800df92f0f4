import { useEffect } from 'react';
import { useSettings } from './useSettings';

/** Applies colour-weak mode to the whole page. */
export function ColorWeak() {
  const { colorWeak } = useSettings();
  useEffect(() => {
    document.documentElement.classList.toggle('crdp-color-weak', colorWeak);
  }, [colorWeak]);
  return null;
}
