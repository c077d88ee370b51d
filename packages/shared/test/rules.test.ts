import { describe, expect, it } from 'vitest';
import { applyRate, checkAccount, checkDisplayName, checkInviteCode, checkPassword, normalizeAccount, normalizeInviteCode, normalizePayoutNumber, maskName, payoutShown, shownPayoutNumber, withdrawalFee } from '../src/rules';
import { RegisterBodySchema } from '../src/schemas';

describe('validation rules (PRODUCT.md §6)', () => {
  it('accounts: e-mail or E.164 phone, case-folded, ≤ 254', () => {
    expect(checkAccount('Someone@Example.COM')).toBeNull();
    expect(normalizeAccount(' Someone@Example.COM ')).toBe('someone@example.com');
    expect(checkAccount('+8613800138000')).toBeNull();
    expect(normalizeAccount('+86 138-0013-8000')).toBe('+8613800138000');
    expect(checkAccount('13800138000')).toBe('invalid_account');
    expect(checkAccount('a@b')).toBe('invalid_account');
    expect(checkAccount('')).toBe('required');
    expect(checkAccount(`${'a'.repeat(250)}@example.com`)).toBe('too_long');
  });

  it('display names: 2–32 characters after trimming, counted as characters', () => {
    expect(checkDisplayName(' 小明 ')).toBeNull();
    expect(checkDisplayName(' x ')).toBe('too_short');
    expect(checkDisplayName('名'.repeat(32))).toBeNull();
    expect(checkDisplayName('名'.repeat(33))).toBe('too_long');
    expect(checkDisplayName('   ')).toBe('required');
    // Issue 28: control characters break mail bodies and headers; bidi overrides reorder what is read.
    for (const bad of ['Bob\r\nBcc: x@example.com', 'Bob\nSmith', 'Bo\tb', 'Bo\u007fb', 'Bo\u0085b', 'Bo\u2028b', 'Bo\u2029b', 'Bo\u202Eb', 'Bo\u2066b', 'A\u0007lert']) {
      expect(checkDisplayName(bad), JSON.stringify(bad)).toBe('control_characters');
    }
    // Trimmed ends are not part of the name; emoji sequences (zero-width joiner) are fine.
    expect(checkDisplayName('\n Bob \t')).toBeNull();
    expect(checkDisplayName('Ana 👩\u200D💻')).toBeNull();
  });

  it('passwords: 8–72, a letter and a digit, not the account', () => {
    expect(checkPassword('abcdefg1')).toBeNull();
    expect(checkPassword('abcdef1')).toBe('too_short');
    expect(checkPassword(`a1${'x'.repeat(71)}`)).toBe('too_long');
    expect(checkPassword('abcdefgh')).toBe('password_weak');
    expect(checkPassword('12345678')).toBe('password_weak');
    expect(checkPassword('密码密码密码12')).toBeNull();
    expect(checkPassword('ab1@x.com', 'AB1@x.com')).toBe('password_equals_account');
    expect(checkPassword('')).toBe('required');
  });

  it('invite codes: 8 Crockford base32 characters, look-alikes mapped', () => {
    expect(checkInviteCode('7K3M9QXR')).toBeNull();
    expect(normalizeInviteCode('7k3m9qxo')).toBe('7K3M9QX0');
    expect(normalizeInviteCode('il')).toBe('11');
    expect(checkInviteCode('7K3M9QX')).toBe('invalid');
    expect(checkInviteCode('7K3M9QXU')).toBe('invalid');
  });

  it('the register schema rejects unknown fields and reports field codes', () => {
    const result = RegisterBodySchema.safeParse({ account: 'x', displayName: 'ok name', password: { keyId: 'k', ciphertext: 'AAAA' }, role: 'admin' });
    expect(result.success).toBe(false);
    const codes = result.error!.issues.map((i) => i.code);
    expect(codes).toContain('unrecognized_keys');
    expect(codes).toContain('custom');
  });
});

describe('maskName: letters and digits only, first and last kept', () => {
  it.each([
    ['Max Member', 'M*******r'],
    ['李雷', '李*'],
    ['王小明', '王*明'],
    ['欧阳 娜娜', '欧**娜'],
    ['  Zoë  ', 'Z*ë'],
    ['Zoe\u0308', 'Z*e\u0308'],
    ['A', 'A'],
    ['', '*'],
    ['Bartholomew Featherstonehaugh', 'B********h'],
    // Punctuation, spaces, symbols and emoji are neither kept nor counted.
    ['Sam (Lyon)', 'S*****n'],
    ['Sophie (Paris)!', 'S********s'],
    ['O’Brien-Smith', 'O********h'],
    ['(Ann)', 'A*n'],
    ['Lily 🌸', 'L**y'],
    ['🌸🌸🌸', '*'],
    ['...', '*'],
    ['小明😀', '小*'],
    ['Team 42', 'T****2'],
    ['김민준', '김*준'],
  ])('%s → %s', (name, masked) => {
    expect(maskName(name)).toBe(masked);
  });
});

describe('withdrawalFee: the one exact rate rule plus the fixed part', () => {
  it('is exact past 2^53, where floating point rounds the product', () => {
    // 955,337,332,143 × 9,993 = 9,546,685,960,104,999: past 2^53 (9,007,199,254,740,992).
    const exact = (BigInt(955_337_332_143) * 9_993n + 5_000n) / 10_000n;
    expect(withdrawalFee(955_337_332_143, { feeBps: 9_993, feeFixed: 0 })).toBe(Number(exact));
    expect(String(exact).endsWith('010')).toBe(true);
    // What the float formula gave: one more.
    expect(Math.floor((955_337_332_143 * 9_993 + 5_000) / 10_000)).toBe(Number(exact) + 1);
    expect(withdrawalFee(955_337_332_143, { feeBps: 9_993, feeFixed: 200 })).toBe(Number(exact) + 200);
  });

  it('rounds half up like commissions and adds the fixed part', () => {
    expect(withdrawalFee(1_999, { feeBps: 250, feeFixed: 0 })).toBe(50);
    expect(withdrawalFee(1, { feeBps: 4_999, feeFixed: 0 })).toBe(0);
    expect(withdrawalFee(1, { feeBps: 5_000, feeFixed: 7 })).toBe(8);
    for (let amount = 1; amount < 3_000; amount += 7) {
      for (const bps of [0, 1, 99, 250, 1_000, 4_999, 5_000, 9_993, 10_000]) {
        expect(withdrawalFee(amount, { feeBps: bps, feeFixed: 100 })).toBe(applyRate(amount, bps) + 100);
      }
    }
  });

  it('has only the fixed part for an amount not yet a positive whole number of minor units', () => {
    for (const amount of [0, -5, 1.5, Number.NaN, 2 ** 53]) expect(withdrawalFee(amount, { feeBps: 100, feeFixed: 30 })).toBe(30);
  });
});

describe('payoutShown: what is kept and shown of an account number', () => {
  it('masks an e-mail address as an e-mail, anything else to its last four characters', () => {
    expect(payoutShown(normalizePayoutNumber('paypal', 'Lin.Wei@Example.com'))).toBe('l***@example.com');
    expect(payoutShown('6222021234567890')).toBe('7890');
    expect(payoutShown('+8613800138000')).toBe('8000');
    // Never the "•••• mple" of an e-mail's last four characters.
    expect(shownPayoutNumber(payoutShown('ab@example.com'))).toBe('a***@example.com');
    expect(shownPayoutNumber('7890')).toBe('••••\u00a07890');
  });
});
