// How the eight shared colours render: the fill from shared/, a deeper ink for outlines and lines.
import { type ColorName, colors } from '../index.ts';

export const ink: Record<ColorName, string> = {
  yellow: '#b7950b',
  orange: '#c0620f',
  red: '#c0392b',
  pink: '#b83b6c',
  violet: '#5b4fd1',
  blue: '#1e6fd9',
  green: '#23862a',
  grey: '#3d4651',
};
export const fill = colors;
/** Light fill for outlined shapes, so text on them stays readable. */
export const tint = (c: ColorName): string => `${colors[c]}40`;
