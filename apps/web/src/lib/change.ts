/** How a figure moved against the previous period (Home's figures and the staff overview's). */
import { numberFormat } from './format';

/**
 * How a figure moved: `none` when both periods are zero (nothing to compare), `new` when the
 * previous period had nothing, else up/down/same with the relative change (0.25 = +25 %).
 */
export type Change = { kind: 'none' } | { kind: 'new' } | { kind: 'up' | 'down' | 'same'; ratio: number };

export function changeOf(current: number, previous: number): Change {
  if (previous === 0) return current > 0 ? { kind: 'new' } : current < 0 ? { kind: 'down', ratio: -1 } : { kind: 'none' };
  const ratio = (current - previous) / Math.abs(previous);
  return { kind: ratio > 0 ? 'up' : ratio < 0 ? 'down' : 'same', ratio };
}

/** "+25%", "−3.5%" (one decimal below 10 %), per locale; `kind` none/new have no number. */
export function formatChange(change: Change, locale: string): string {
  if (change.kind === 'none' || change.kind === 'new') return '';
  const abs = Math.abs(change.ratio);
  const text = numberFormat(locale, { style: 'percent', maximumFractionDigits: abs > 0 && abs < 0.1 ? 1 : 0 }).format(abs);
  return change.kind === 'up' ? `+${text}` : change.kind === 'down' ? `\u2212${text}` : text;
}
