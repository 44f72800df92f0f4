import type { ComponentType } from 'react';
import * as icons from './route-icons';

/** The icons the route table names, by name (route-icons.ts lists them). */
export const ROUTE_ICONS: Record<string, ComponentType> = icons;

export function RouteIcon({ name }: { name: string | undefined }) {
  const Icon = name ? ROUTE_ICONS[name] : undefined;
  return Icon ? <Icon /> : null;
}
