import type { FunctionAction } from '../constants.js';

export interface LocalizedText {
  'zh-CN': string;
  'en-US': string;
}

/**
 * One entry of the product's route table (spec 000 section 2). The same table seeds the
 * `menus` and `functions` rows on the server and builds the router, menu, breadcrumbs and
 * tabs in the web app.
 */
export interface RouteEntry {
  /** Stable menu id (MenuId). Never reuse or renumber: roles refer to it. */
  menuId: number;
  /** Route name, stored as the menu's RouterName; unique over the table. */
  name: string;
  /** Absolute path, e.g. `/data-lake/overviews`. */
  path: string;
  title: LocalizedText;
  /** antd icon component name, e.g. `DatabaseOutlined` (areas only). */
  icon?: string;
  /** Not shown in the menu (detail pages reached from another page). */
  hidden?: boolean;
  /** Actions the screen offers; each becomes a function with ApiId `${name}.${action}`. */
  actions?: FunctionAction[];
  /** Wide page (no content width limit), e.g. DatabasesDetails. */
  wide?: boolean;
  keepAlive?: boolean;
  children?: RouteEntry[];
}

export interface FunctionEntry {
  funcId: number;
  menuId: number;
  apiId: string;
  action: FunctionAction;
}
