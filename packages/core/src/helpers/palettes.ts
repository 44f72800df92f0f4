/**
 * Tree colour palettes (spec 000 section 9: 10 entries each). Charts cycle through one for
 * series and categories; the tree screens colour levels with them.
 */
export const TREE_PALETTES = {
  /** ECharts' default nine plus a tenth, so charts look familiar. */
  default: [
    '#5470C6',
    '#91CC75',
    '#FAC858',
    '#EE6666',
    '#73C0DE',
    '#3BA272',
    '#FC8452',
    '#9A60B4',
    '#EA7CCC',
    '#1890FF',
  ],
  /** Ant Design's blue scale, light to dark, for levels of one tree. */
  blue: [
    '#E6F7FF',
    '#BAE7FF',
    '#91D5FF',
    '#69C0FF',
    '#40A9FF',
    '#1890FF',
    '#096DD9',
    '#0050B3',
    '#003A8C',
    '#002766',
  ],
  /** Distinct hues that stay apart for people with red-green colour weakness (Okabe-Ito based). */
  colorSafe: [
    '#0072B2',
    '#E69F00',
    '#56B4E9',
    '#009E73',
    '#F0E442',
    '#D55E00',
    '#CC79A7',
    '#000000',
    '#999999',
    '#6A3D9A',
  ],
} as const satisfies Record<string, readonly string[]>;

export type TreePaletteName = keyof typeof TREE_PALETTES;
export const DEFAULT_TREE_PALETTE = TREE_PALETTES.default;

/** The colour for the i-th entry, cycling through the palette. */
export const paletteColor = (index: number, palette: readonly string[] = DEFAULT_TREE_PALETTE): string =>
  palette[((index % palette.length) + palette.length) % palette.length]!;
