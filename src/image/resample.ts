// The kernels image tools resample with, as weights over a distance in source pixels.
const { abs, PI, sin } = Math;

export interface Kernel {
  radius: number;
  weight(x: number): number;
}

const sinc = (x: number): number => (x === 0 ? 1 : sin(PI * x) / (PI * x));

/** Lanczos3 (sharp's, ImageMagick's default for shrinking) and Catmull-Rom bicubic (Pillow's, browsers'). */
export const KERNELS: Kernel[] = [
  { radius: 3, weight: (x) => (abs(x) < 3 ? sinc(x) * sinc(x / 3) : 0) },
  {
    radius: 2,
    weight: (x) => {
      const t = abs(x);
      return t < 1 ? 1.5 * t ** 3 - 2.5 * t ** 2 + 1 : t < 2 ? -0.5 * t ** 3 + 2.5 * t ** 2 - 4 * t + 2 : 0;
    },
  },
];
