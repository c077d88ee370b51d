import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyRate,
  attribute,
  availableAt,
  bindingMonth,
  DAY_MS,
  isSelfReferral,
  monthsBetween,
  level1Commission,
  overrideCommission,
  refundReversal,
  saleRateBps,
  withinWindow,
  type AttributionCandidates,
  type CommissionTerms,
  type RefundInput,
} from '../src/domain/commission';

const MAX = Number.MAX_SAFE_INTEGER;
const T12 = 1_000_000_000_000;

describe('applyRate: round half up to the minor unit', () => {
  it.each([
    // base, bps, expected
    [0, 0, 0],
    [0, 10_000, 0],
    [1, 0, 0],
    [123_456, 0, 0],
    [1, 1, 0],
    [1, 4_999, 0],
    [1, 5_000, 1], // 0.5 exactly → up
    [1, 5_001, 1],
    [1, 10_000, 1],
    [2, 2_500, 1], // 0.5
    [3, 5_000, 2], // 1.5
    [5, 1_000, 1], // 0.5
    [15, 1_000, 2], // 1.5
    [25, 1_000, 3], // 2.5
    [4, 1_000, 0], // 0.4
    [6, 1_000, 1], // 0.6
    [4_999, 1, 0], // 0.4999
    [5_000, 1, 1], // 0.5
    [10_000, 1, 1],
    [1_999, 250, 50], // 49.975
    [1_998, 250, 50], // 49.95
    [1_980, 250, 50], // 49.5
    [1_979, 250, 49], // 49.475
    [1_234_567, 1_234, 152_346], // 152 345.5678
    [100, 10_000, 100],
    [T12, 10_000, T12],
    [T12, 9_999, 999_900_000_000],
    [T12, 1, 100_000_000],
    [T12 - 1, 1, 100_000_000], // 99 999 999.9999
    [T12 - 1, 5_000, 500_000_000_000], // 499 999 999 999.5
    [T12 - 1, 10_000, T12 - 1],
    [2 * T12 + 1, 5_000, T12 + 1], // product 10^16 + 5000 > 2^53: BigInt path, .5 → up
    [2 * T12 + 1, 4_999, 999_800_000_000], // 999 800 000 000.4999
    [900_719_925_474_100, 10, 900_719_925_474], // product just above 2^53
    [MAX, 10_000, MAX],
    [MAX, 5_000, 4_503_599_627_370_496], // 4 503 599 627 370 495.5
    [MAX, 1, 900_719_925_474], // 900 719 925 474.0991
  ])('%d × %d bp = %d', (base, bps, expected) => {
    expect(applyRate(base, bps)).toBe(expected);
  });

  it.each([
    [-1, 100],
    [1.5, 100],
    [Number.NaN, 100],
    [Number.POSITIVE_INFINITY, 100],
    [MAX + 1, 100],
    [100, -1],
    [100, 0.5],
    [100, 10_001],
    [100, Number.NaN],
  ])('rejects base %d, bps %d', (base, bps) => {
    expect(() => applyRate(base, bps)).toThrow(RangeError);
  });

  const base = fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: T12 }), fc.maxSafeNat());
  const bps = fc.integer({ min: 0, max: 10_000 });

  it('is within half a minor unit of the exact value, halves going up (BigInt cross-multiplication)', () => {
    fc.assert(
      fc.property(base, bps, (b, r) => {
        const result = applyRate(b, r);
        expect(Number.isSafeInteger(result)).toBe(true);
        // 10_000 × result − base × bps ∈ (−5000, 5000]: |error| ≤ 0.5 and exactly .5 rounds up.
        const diff = 10_000n * BigInt(result) - BigInt(b) * BigInt(r);
        expect(diff > -5_000n && diff <= 5_000n).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('is monotonic in the base and in the rate', () => {
    fc.assert(
      fc.property(base, base, bps, bps, (b1, b2, r1, r2) => {
        const [lo, hi] = b1 <= b2 ? [b1, b2] : [b2, b1];
        const [rlo, rhi] = r1 <= r2 ? [r1, r2] : [r2, r1];
        expect(applyRate(lo, r1)).toBeLessThanOrEqual(applyRate(hi, r1));
        expect(applyRate(b1, rlo)).toBeLessThanOrEqual(applyRate(b1, rhi));
        expect(applyRate(hi, rhi)).toBeLessThanOrEqual(hi);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('saleRateBps: monthly volume tiers', () => {
  const pct = (saleReward: number, tiers: { minSales: number; bps: number }[] = []) => ({ saleRewardType: 'bps' as const, saleReward, tiers });
  const unsorted = [
    { minSales: 10, bps: 1_000 },
    { minSales: 3, bps: 700 },
    { minSales: 25, bps: 1_500 },
  ];

  it.each([
    // tiers, salesThisMonth (this sale is number salesThisMonth + 1), expected
    ['no tiers, first sale', pct(500), 0, 500],
    ['no tiers, many sales', pct(500), 999, 500],
    ['unsorted, 1st sale', pct(500, unsorted), 0, 500],
    ['unsorted, 2nd sale', pct(500, unsorted), 1, 500],
    ['unsorted, 3rd sale = boundary', pct(500, unsorted), 2, 700],
    ['unsorted, 9th sale', pct(500, unsorted), 8, 700],
    ['unsorted, 10th sale = boundary', pct(500, unsorted), 9, 1_000],
    ['unsorted, 24th sale', pct(500, unsorted), 23, 1_000],
    ['unsorted, 25th sale = boundary', pct(500, unsorted), 24, 1_500],
    ['unsorted, 1000th sale', pct(500, unsorted), 999, 1_500],
    ['tier from the 1st sale', pct(500, [{ minSales: 1, bps: 600 }]), 0, 600],
    ['equal minSales: highest bps wins', pct(500, [{ minSales: 3, bps: 600 }, { minSales: 3, bps: 800 }]), 2, 800],
    ['equal minSales, other order', pct(500, [{ minSales: 3, bps: 800 }, { minSales: 3, bps: 600 }]), 2, 800],
    ['equal minSales not yet reached', pct(500, [{ minSales: 3, bps: 800 }, { minSales: 3, bps: 600 }]), 1, 500],
    ['a reached tier below the base still applies', pct(1_000, [{ minSales: 5, bps: 300 }]), 4, 300],
    ['a reached 0 bp tier applies', pct(1_000, [{ minSales: 2, bps: 0 }]), 1, 0],
    ['base 0 with tiers', pct(0, [{ minSales: 2, bps: 400 }]), 1, 400],
  ])('%s', (_name, terms, salesThisMonth, expected) => {
    expect(saleRateBps(terms, salesThisMonth)).toBe(expected);
  });

  it('is null for fixed campaigns, tiers or not', () => {
    expect(saleRateBps({ saleRewardType: 'fixed', saleReward: 500, tiers: [] }, 0)).toBeNull();
    expect(saleRateBps({ saleRewardType: 'fixed', saleReward: 500, tiers: [{ minSales: 1, bps: 900 }] }, 50)).toBeNull();
  });

  it.each([-1, 1.5, Number.NaN])('rejects salesThisMonth %d', (n) => {
    expect(() => saleRateBps(pct(500), n)).toThrow(RangeError);
  });

  it('equals the rate of the highest reached tier for random unsorted tiers', () => {
    const tier = fc.record({ minSales: fc.integer({ min: 1, max: 50 }), bps: fc.integer({ min: 0, max: 10_000 }) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.array(tier, { maxLength: 10 }), fc.integer({ min: 0, max: 60 }), (baseBps, tiers, count) => {
        const reached = tiers.filter((t) => t.minSales <= count + 1);
        const top = Math.max(...reached.map((t) => t.minSales));
        const expected = reached.length === 0 ? baseBps : Math.max(...reached.filter((t) => t.minSales === top).map((t) => t.bps));
        expect(saleRateBps(pct(baseBps, tiers), count)).toBe(expected);
        expect(saleRateBps(pct(baseBps, [...tiers].reverse()), count)).toBe(expected);
      }),
    );
  });
});

describe('level1Commission', () => {
  const terms = (over: Partial<CommissionTerms> = {}): CommissionTerms => ({ leadReward: 300, saleRewardType: 'bps', saleReward: 1_000, tiers: [], ...over });
  const tiers = [{ minSales: 3, bps: 2_000 }];

  it.each([
    ['lead without amount', terms(), { kind: 'lead', amount: 0 }, 0, { base: 0, rateBps: null, amount: 300, rule: 'lead_fixed' }],
    ['lead with amount', terms(), { kind: 'lead', amount: 5_000 }, 7, { base: 5_000, rateBps: null, amount: 300, rule: 'lead_fixed' }],
    ['lead on a fixed campaign', terms({ saleRewardType: 'fixed', saleReward: 900 }), { kind: 'lead', amount: 0 }, 0, { base: 0, rateBps: null, amount: 300, rule: 'lead_fixed' }],
    ['lead with no lead reward', terms({ leadReward: 0 }), { kind: 'lead', amount: 5_000 }, 0, null],
    ['sale at the base rate', terms(), { kind: 'sale', amount: 1_999 }, 0, { base: 1_999, rateBps: 1_000, amount: 200, rule: 'sale_rate' }],
    ['sale rounding .5 up', terms({ saleReward: 250 }), { kind: 'sale', amount: 1_980 }, 0, { base: 1_980, rateBps: 250, amount: 50, rule: 'sale_rate' }],
    ['sale before the tier', terms({ tiers }), { kind: 'sale', amount: 10_000 }, 1, { base: 10_000, rateBps: 1_000, amount: 1_000, rule: 'sale_rate' }],
    ['sale reaching the tier', terms({ tiers }), { kind: 'sale', amount: 10_000 }, 2, { base: 10_000, rateBps: 2_000, amount: 2_000, rule: 'sale_tier' }],
    ['sale beyond the tier', terms({ tiers }), { kind: 'sale', amount: 10_000 }, 40, { base: 10_000, rateBps: 2_000, amount: 2_000, rule: 'sale_tier' }],
    ['sale, tier below the base', terms({ tiers: [{ minSales: 2, bps: 500 }] }), { kind: 'sale', amount: 10_000 }, 1, { base: 10_000, rateBps: 500, amount: 500, rule: 'sale_tier' }],
    ['sale of 1 at 49.99 %', terms({ saleReward: 4_999 }), { kind: 'sale', amount: 1 }, 0, null],
    ['sale of 1 at 50 %', terms({ saleReward: 5_000 }), { kind: 'sale', amount: 1 }, 0, { base: 1, rateBps: 5_000, amount: 1, rule: 'sale_rate' }],
    ['sale of 0', terms(), { kind: 'sale', amount: 0 }, 0, null],
    ['sale at 0 bp', terms({ saleReward: 0 }), { kind: 'sale', amount: 10_000 }, 0, null],
    ['sale reaching a 0 bp tier', terms({ tiers: [{ minSales: 1, bps: 0 }] }), { kind: 'sale', amount: 10_000 }, 0, null],
    ['large sale at 100 %', terms({ saleReward: 10_000 }), { kind: 'sale', amount: T12 }, 0, { base: T12, rateBps: 10_000, amount: T12, rule: 'sale_rate' }],
    ['fixed sale', terms({ saleRewardType: 'fixed', saleReward: 1_500 }), { kind: 'sale', amount: 9_999 }, 0, { base: 9_999, rateBps: null, amount: 1_500, rule: 'sale_fixed' }],
    ['fixed sale ignores tiers', terms({ saleRewardType: 'fixed', saleReward: 1_500, tiers }), { kind: 'sale', amount: 9_999 }, 10, { base: 9_999, rateBps: null, amount: 1_500, rule: 'sale_fixed' }],
    ['fixed sale of amount 0 still pays', terms({ saleRewardType: 'fixed', saleReward: 1_500 }), { kind: 'sale', amount: 0 }, 0, { base: 0, rateBps: null, amount: 1_500, rule: 'sale_fixed' }],
    ['fixed sale with reward 0', terms({ saleRewardType: 'fixed', saleReward: 0, tiers }), { kind: 'sale', amount: 9_999 }, 10, null],
  ] as const)('%s', (_name, t, conversion, salesThisMonth, expected) => {
    expect(level1Commission(t, conversion, salesThisMonth)).toEqual(expected);
  });

  it('rejects negative or fractional amounts and counts', () => {
    expect(() => level1Commission(terms(), { kind: 'sale', amount: -1 }, 0)).toThrow(RangeError);
    expect(() => level1Commission(terms(), { kind: 'sale', amount: 10.5 }, 0)).toThrow(RangeError);
    expect(() => level1Commission(terms(), { kind: 'sale', amount: 10 }, -1)).toThrow(RangeError);
  });
});

describe('overrideCommission', () => {
  it.each([
    [0, 1_000, 0],
    [1_000, 0, 0],
    [0, 0, 0],
    [200, 1_000, 20],
    [5, 1_000, 1], // 0.5
    [4, 1_000, 0], // 0.4
    [1_999, 250, 50],
    [T12, 10_000, T12],
  ])('%d × %d bp = %d', (level1, bps, expected) => {
    expect(overrideCommission(level1, bps)).toBe(expected);
  });
});

describe('refundReversal: cumulative proportional reversal', () => {
  /** Applies refunds in order; returns each reversal. */
  function run(commissionAmount: number, saleAmount: number, refunds: number[]): number[] {
    let refundedBefore = 0;
    let reversedBefore = 0;
    return refunds.map((refundAmount) => {
      const { reversal, refundedAfter } = refundReversal({ commissionAmount, saleAmount, refundedBefore, refundAmount, reversedBefore });
      refundedBefore = refundedAfter;
      reversedBefore += reversal;
      return reversal;
    });
  }

  it.each([
    ['single full refund', 1_000, 5_000, [5_000], [1_000]],
    ['single partial refund', 1_000, 5_000, [1_000], [200]],
    ['two halves, even commission', 1_000, 5_000, [2_500, 2_500], [500, 500]],
    ['two halves, odd commission', 1_001, 5_000, [2_500, 2_500], [500, 501]],
    ['three thirds of an odd sale', 100, 2_999, [999, 1_000, 1_000], [33, 33, 34]],
    ['three thirds, 101 over 3', 101, 3, [1, 1, 1], [33, 34, 34]],
    ['1-unit refunds summing to the sale', 10, 7, [1, 1, 1, 1, 1, 1, 1], [1, 1, 2, 1, 2, 1, 2]],
    ['1-unit refunds, commission smaller than the sale', 3, 7, [1, 1, 1, 1, 1, 1, 1], [0, 0, 1, 0, 1, 0, 1]],
    ['rounded-down refunds caught up later', 5, 4, [1, 1, 1, 1], [1, 1, 1, 2]],
    ['partial refunds not reaching the sale', 100, 3, [1, 1], [33, 33]],
    ['zero commission', 0, 5_000, [2_500, 2_500], [0, 0]],
    ['large amounts (BigInt)', MAX, MAX, [MAX - 1, 1], [MAX - 1, 1]],
    ['large commission, 1-unit refund', T12, 3, [1, 1, 1], [333_333_333_333, 333_333_333_333, 333_333_333_334]],
  ])('%s', (_name, commission, sale, refunds, expected) => {
    const reversals = run(commission, sale, refunds);
    expect(reversals).toEqual(expected);
    if (refunds.reduce((a, b) => a + b, 0) === sale) expect(reversals.reduce((a, b) => a + b, 0)).toBe(commission);
  });

  it('returns the refunded total', () => {
    expect(refundReversal({ commissionAmount: 100, saleAmount: 1_000, refundedBefore: 300, refundAmount: 200, reversedBefore: 30 })).toEqual({ reversal: 20, refundedAfter: 500 });
  });

  it('after an earlier reversal rounded differently, it catches up and never goes negative', () => {
    // Earlier reversal rounded up (34 where the rule gives 33): the next one takes only what is due.
    expect(refundReversal({ commissionAmount: 100, saleAmount: 3, refundedBefore: 1, refundAmount: 1, reversedBefore: 34 })).toEqual({ reversal: 32, refundedAfter: 2 });
    // Earlier reversals already beyond the proportional total: nothing more, not a negative amount.
    expect(refundReversal({ commissionAmount: 100, saleAmount: 4, refundedBefore: 1, refundAmount: 1, reversedBefore: 60 })).toEqual({ reversal: 0, refundedAfter: 2 });
    // The refund completing the sale reverses exactly what remains.
    expect(refundReversal({ commissionAmount: 100, saleAmount: 4, refundedBefore: 2, refundAmount: 2, reversedBefore: 60 })).toEqual({ reversal: 40, refundedAfter: 4 });
    expect(refundReversal({ commissionAmount: 100, saleAmount: 4, refundedBefore: 2, refundAmount: 2, reversedBefore: 100 })).toEqual({ reversal: 0, refundedAfter: 4 });
  });

  const ok: RefundInput = { commissionAmount: 100, saleAmount: 1_000, refundedBefore: 600, refundAmount: 400, reversedBefore: 60 };
  it.each([
    ['over-refund', { refundAmount: 401 }],
    ['over-refund of a fully refunded sale', { refundedBefore: 1_000, refundAmount: 1 }],
    ['zero refund', { refundAmount: 0 }],
    ['negative refund', { refundAmount: -5 }],
    ['fractional refund', { refundAmount: 0.5 }],
    ['reversed more than the commission', { reversedBefore: 101 }],
    ['negative commission', { commissionAmount: -1 }],
    ['refund of a zero sale', { saleAmount: 0, refundedBefore: 0, refundAmount: 1 }],
  ])('throws a RangeError on %s', (_name, patch) => {
    expect(() => refundReversal(ok)).not.toThrow();
    expect(() => refundReversal({ ...ok, ...patch })).toThrow(RangeError);
  });

  it('never reverses more than the commission, totals are monotonic, and a full refund reverses it all', () => {
    const amount = fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: T12 }), fc.integer({ min: 1, max: MAX }));
    const scenario = fc
      .record({ commission: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: T12 }), fc.maxSafeNat()), sale: amount })
      .chain(({ commission, sale }) =>
        fc.record({
          commission: fc.constant(commission),
          sale: fc.constant(sale),
          cuts: fc.uniqueArray(fc.integer({ min: 1, max: sale }), { maxLength: 25 }),
          full: fc.boolean(),
        }),
      );
    fc.assert(
      fc.property(scenario, ({ commission, sale, cuts, full }) => {
        // Cut points of the cumulative refunded amount → positive refunds summing to ≤ the sale.
        const points = [...new Set(full ? [...cuts, sale] : cuts)].sort((a, b) => a - b);
        let refundedBefore = 0;
        let reversedBefore = 0;
        for (const point of points) {
          const { reversal, refundedAfter } = refundReversal({ commissionAmount: commission, saleAmount: sale, refundedBefore, refundAmount: point - refundedBefore, reversedBefore });
          expect(refundedAfter).toBe(point);
          expect(reversal).toBeGreaterThanOrEqual(0);
          expect(reversal).toBeLessThanOrEqual(commission - reversedBefore);
          reversedBefore += reversal;
          // The running total is exactly the cumulative floor, whatever the split.
          expect(BigInt(reversedBefore)).toBe((BigInt(commission) * BigInt(point)) / BigInt(sale));
          refundedBefore = refundedAfter;
        }
        expect(reversedBefore).toBeLessThanOrEqual(commission);
        if (refundedBefore === sale) expect(reversedBefore).toBe(commission);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('availableAt and withinWindow', () => {
  it('adds the hold in whole days', () => {
    expect(availableAt(1_000, 0)).toBe(1_000);
    expect(availableAt(0, 7)).toBe(604_800_000);
    expect(availableAt(1_700_000_000_000, 90)).toBe(1_700_000_000_000 + 90 * DAY_MS);
    expect(() => availableAt(0, -1)).toThrow(RangeError);
  });

  it.each([
    ['click at the conversion', 5 * DAY_MS, 5 * DAY_MS, 1, true],
    ['click 1 ms after the conversion', 5 * DAY_MS + 1, 5 * DAY_MS, 30, false],
    ['click exactly window days earlier', 0, 30 * DAY_MS, 30, true],
    ['click 1 ms too early', 0, 30 * DAY_MS + 1, 30, false],
    ['click inside the window', 10 * DAY_MS, 30 * DAY_MS, 30, true],
    ['1-day window', 0, DAY_MS, 1, true],
    ['1-day window, 1 ms over', 0, DAY_MS + 1, 1, false],
  ])('%s', (_name, clickAt, occurredAt, windowDays, expected) => {
    expect(withinWindow(clickAt, occurredAt, windowDays)).toBe(expected);
  });
});

describe('attribute: coupon > click (in window) > known customer (in window) > link', () => {
  const NOW = 1_700_000_000_000;
  const coupon = { promoterId: 'p-coupon', linkId: null };
  const click = { promoterId: 'p-click', linkId: 'l-click', at: NOW - DAY_MS };
  const oldClick = { ...click, at: NOW - 31 * DAY_MS };
  const futureClick = { ...click, at: NOW + 1 };
  const customer = { promoterId: 'p-customer', linkId: 'l-customer', at: NOW - 2 * DAY_MS };
  const oldCustomer = { ...customer, at: NOW - 30 * DAY_MS - 1 };
  const link = { promoterId: 'p-link', linkId: 'l-link' };

  it.each([
    ['nothing', {}, null],
    ['all null', { coupon: null, click: null, customer: null, link: null }, null],
    ['everything: coupon wins', { coupon, click, customer, link }, { promoterId: 'p-coupon', linkId: null, by: 'coupon' }],
    ['coupon with a link id', { coupon: { promoterId: 'p-coupon', linkId: 'l-coupon' }, link }, { promoterId: 'p-coupon', linkId: 'l-coupon', by: 'coupon' }],
    ['click beats customer and link', { click, customer, link }, { promoterId: 'p-click', linkId: 'l-click', by: 'click' }],
    ['click outside the window falls to customer', { click: oldClick, customer, link }, { promoterId: 'p-customer', linkId: 'l-customer', by: 'customer' }],
    ['click after the conversion falls to customer', { click: futureClick, customer, link }, { promoterId: 'p-customer', linkId: 'l-customer', by: 'customer' }],
    ['customer beats link', { customer, link }, { promoterId: 'p-customer', linkId: 'l-customer', by: 'customer' }],
    ['customer without a link', { customer: { ...customer, linkId: null } }, { promoterId: 'p-customer', linkId: null, by: 'customer' }],
    ['customer outside the window falls to link', { customer: oldCustomer, link }, { promoterId: 'p-link', linkId: 'l-link', by: 'link' }],
    ['stale click and customer fall to link', { click: oldClick, customer: oldCustomer, link }, { promoterId: 'p-link', linkId: 'l-link', by: 'link' }],
    ['stale click and customer alone', { click: oldClick, customer: oldCustomer }, null],
    ['link alone', { link }, { promoterId: 'p-link', linkId: 'l-link', by: 'link' }],
  ] as const)('%s', (_name, candidates, expected) => {
    expect(attribute(candidates as AttributionCandidates, NOW, 30)).toEqual(expected);
  });

  it('respects the priority for random candidate sets', () => {
    const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined }).chain((v) => (v === undefined ? fc.constantFrom(undefined, null) : fc.constant(v)));
    const id = fc.string({ minLength: 1, maxLength: 6 });
    const at = fc.integer({ min: NOW - 40 * DAY_MS, max: NOW + DAY_MS });
    const candidates = fc.record({
      coupon: maybe(fc.record({ promoterId: id, linkId: fc.option(id, { nil: null }) })),
      click: maybe(fc.record({ promoterId: id, linkId: id, at })),
      customer: maybe(fc.record({ promoterId: id, linkId: fc.option(id, { nil: null }), at })),
      link: maybe(fc.record({ promoterId: id, linkId: id })),
    });
    fc.assert(
      fc.property(candidates, fc.integer({ min: 1, max: 35 }), (c, windowDays) => {
        const inWindow = (t: number) => t <= NOW && NOW - t <= windowDays * DAY_MS;
        const ordered = [
          { by: 'coupon', hit: c.coupon ?? null },
          { by: 'click', hit: c.click && inWindow(c.click.at) ? c.click : null },
          { by: 'customer', hit: c.customer && inWindow(c.customer.at) ? c.customer : null },
          { by: 'link', hit: c.link ?? null },
        ] as const;
        const first = ordered.find((o) => o.hit !== null);
        const result = attribute(c, NOW, windowDays);
        expect(result).toEqual(first && first.hit ? { promoterId: first.hit.promoterId, linkId: first.hit.linkId, by: first.by } : null);
        // Dropping every lower-priority candidate changes nothing; an eligible coupon always wins.
        if (result) {
          const rank = ['coupon', 'click', 'customer', 'link'].indexOf(result.by);
          const kept = Object.fromEntries(Object.entries(c).filter(([k]) => ['coupon', 'click', 'customer', 'link'].indexOf(k) <= rank));
          expect(attribute(kept, NOW, windowDays)).toEqual(result);
        }
        expect(attribute({ ...c, coupon: { promoterId: 'winner', linkId: null } }, NOW, windowDays)?.by).toBe('coupon');
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('isSelfReferral', () => {
  const hash = 'a3f1c9e0'.repeat(8);
  it.each([
    [hash, hash, true],
    [hash.toUpperCase(), hash, true],
    [hash, hash.toUpperCase(), true],
    [hash, 'b'.repeat(64), false],
    [null, hash, false],
    [hash, null, false],
    [undefined, hash, false],
    [hash, undefined, false],
    ['', '', false],
    [null, null, false],
  ])('%s vs %s → %s', (customer, promoter, expected) => {
    expect(isSelfReferral(customer, promoter)).toBe(expected);
  });
});

describe('customer bindings (recurring commissions)', () => {
  it('counts calendar months, the last day of a shorter month completing one', () => {
    expect(monthsBetween('2026-01-15', '2026-01-15')).toBe(0);
    expect(monthsBetween('2026-01-15', '2026-02-14')).toBe(0);
    expect(monthsBetween('2026-01-15', '2026-02-15')).toBe(1);
    expect(monthsBetween('2026-01-31', '2026-02-28')).toBe(1);
    expect(monthsBetween('2028-01-31', '2028-02-28')).toBe(0);
    expect(monthsBetween('2028-01-31', '2028-02-29')).toBe(1);
    expect(monthsBetween('2026-01-31', '2026-03-30')).toBe(1);
    expect(monthsBetween('2026-01-31', '2026-03-31')).toBe(2);
    expect(monthsBetween('2025-12-15', '2026-12-15')).toBe(12);
    expect(monthsBetween('2026-03-15', '2026-03-01')).toBe(-1);
  });

  it('holds from its start, within its months, until it is ended', () => {
    const start = Date.UTC(2026, 0, 15, 12);
    const twelve = { startedAt: start, startDay: '2026-01-15', months: 12, endedAt: null };
    expect(bindingMonth(twelve, start, '2026-01-15')).toBe(1);
    expect(bindingMonth(twelve, start - 1, '2026-01-15')).toBeNull();
    expect(bindingMonth(twelve, Date.UTC(2026, 3, 15), '2026-04-15')).toBe(4);
    expect(bindingMonth(twelve, Date.UTC(2027, 0, 14), '2027-01-14')).toBe(12);
    expect(bindingMonth(twelve, Date.UTC(2027, 0, 15), '2027-01-15')).toBeNull();
    const lifetime = { ...twelve, months: null };
    expect(bindingMonth(lifetime, Date.UTC(2036, 0, 15), '2036-01-15')).toBe(121);
    const ended = { ...lifetime, endedAt: Date.UTC(2026, 5, 1) };
    expect(bindingMonth(ended, Date.UTC(2026, 4, 31), '2026-05-31')).toBe(5);
    expect(bindingMonth(ended, Date.UTC(2026, 5, 1), '2026-06-01')).toBeNull();
  });

  it('walks day by day through months 1..n, one step at a time, then stops for good', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 365 * 3 }), fc.integer({ min: 1, max: 24 }), (offset, months) => {
      const start = Date.UTC(2024, 0, 1, 12) + offset * 86_400_000;
      const startDay = new Date(start).toISOString().slice(0, 10);
      const seen: (number | null)[] = [];
      for (let d = 0; d <= (months + 1) * 31; d++) {
        const at = start + d * 86_400_000;
        seen.push(bindingMonth({ startedAt: start, startDay, months, endedAt: null }, at, new Date(at).toISOString().slice(0, 10)));
      }
      const last = seen.indexOf(null);
      expect(last).toBeGreaterThan(0);
      // Every month from 1 to n, in order, each step at most one; after the first null only nulls.
      expect(seen.slice(last).every((m) => m === null)).toBe(true);
      const held = seen.slice(0, last) as number[];
      expect(held[0]).toBe(1);
      expect(held.at(-1)).toBe(months);
      for (let k = 1; k < held.length; k++) expect(held[k]! - held[k - 1]!).toBeGreaterThanOrEqual(0);
      for (let k = 1; k < held.length; k++) expect(held[k]! - held[k - 1]!).toBeLessThanOrEqual(1);
      // About months × 30.4 days long (28 to 31 days a month).
      expect(last).toBeGreaterThanOrEqual(months * 28);
      expect(last).toBeLessThanOrEqual(months * 31 + 1);
    }), { numRuns: 60 });
  });
});
