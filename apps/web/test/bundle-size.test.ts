import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module script without type declarations
import { BUDGET_BYTES, signInFirstVisit } from '../../../scripts/bundle-size.mjs';

describe('first-visit budget', () => {
  it('the sign-in page loads at most 110 KB of gzipped JavaScript (needs `npm run build`)', () => {
    const result = signInFirstVisit() as { total: number; rows: { file: string }[] };
    expect(result.rows.length).toBeGreaterThan(3);
    expect(BUDGET_BYTES).toBe(110 * 1024);
    expect(result.total).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
