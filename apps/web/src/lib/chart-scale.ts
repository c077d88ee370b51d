/** Scales for the trend charts (Home's and the staff overview's): a rounded top for the axis, bar geometry and which days get a label. */

/** The smallest 1, 2, 2.5 or 5 × 10ⁿ (whole numbers only) at or above `value`. */
export function niceStep(value: number): number {
  if (!(value > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 2.5, 5, 10]) {
    const step = m * power;
    if (step >= value && Number.isInteger(step)) return step;
  }
  return 10 * power;
}

/** Gridline values from 0 to a rounded top that holds `max`, in about `count` whole-number steps. */
export function axisTicks(max: number, count = 3): number[] {
  const top = Math.max(0, max);
  const step = niceStep(top / count);
  const steps = Math.max(1, Math.ceil(top / step));
  return Array.from({ length: steps + 1 }, (_, i) => i * step);
}

interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Bars for `values` in a plot of `width` × `height` whose top is `top` (values above it are
 * clipped, negatives drawn as zero). A non-zero value is always at least 1 unit tall, so it shows.
 */
export function barLayout(values: number[], width: number, height: number, top: number, gapRatio = 0.3): Bar[] {
  const n = values.length;
  if (n === 0) return [];
  const slot = width / n;
  const barWidth = Math.max(1, slot * (1 - gapRatio));
  return values.map((v, i) => {
    const clamped = Math.min(Math.max(v, 0), top);
    const h = top > 0 ? (clamped / top) * height : 0;
    const barHeight = v > 0 ? Math.max(1, h) : 0;
    return { x: i * slot + (slot - barWidth) / 2, y: height - barHeight, width: barWidth, height: barHeight };
  });
}

/** Indexes of the days that get an axis label: first and last always, evenly spaced, at most `max`. */
export function labelIndexes(n: number, max: number): number[] {
  if (n <= 0) return [];
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  if (max <= 1) return [n - 1];
  const out = new Set<number>();
  for (let k = 0; k < max; k++) out.add(Math.round((k * (n - 1)) / (max - 1)));
  return [...out].sort((a, b) => a - b);
}
