import { randomBytes, randomFillSync } from 'node:crypto';
import { CROCKFORD_ALPHABET, GROUP_CODE_LENGTH, INVITE_CODE_LENGTH } from '@pa/shared';

let lastTime = 0;
/** The last id's 80 random bits as two 40-bit halves (plain numbers: exact below 2^53). */
let lastHigh = 0;
let lastLow = 0;
const HALF = 2 ** 40;

/** Random bytes taken 10 at a time from a pool refilled 4 KB at a time (one call to the system per 409 ids). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function random40x2(): [number, number] {
  if (poolAt + 10 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const high = pool.readUIntBE(poolAt, 5);
  const low = pool.readUIntBE(poolAt + 5, 5);
  poolAt += 10;
  return [high, low];
}

/** The alphabet's character codes, and a buffer each id is spelled into (one string made per id). */
const ALPHABET_CODES = Uint8Array.from(CROCKFORD_ALPHABET, (ch) => ch.charCodeAt(0));
const spelled = Buffer.alloc(26);

/** `value` (below 32^count) as `count` Crockford base32 characters into `spelled` at `at`, most significant first. */
function base32Into(value: number, at: number, count: number) {
  for (let i = at + count - 1; i >= at; i--) {
    spelled[i] = ALPHABET_CODES[value % 32]!;
    value = Math.floor(value / 32);
  }
}

/**
 * 26-character, time-ordered id (48-bit ms time + 80 random bits, Crockford base32). Monotonic
 * within this process: ids made in the same millisecond increase, so they sort in creation order.
 */
export function newId(now = Date.now()): string {
  let time = now;
  let high: number;
  let low: number;
  if (time <= lastTime && !(lastHigh === HALF - 1 && lastLow === HALF - 1)) {
    // The same (or an earlier) millisecond: the last id's random part plus one.
    time = lastTime;
    low = lastLow + 1;
    high = lastHigh;
    if (low === HALF) {
      low = 0;
      high++;
    }
  } else {
    [high, low] = random40x2();
  }
  lastTime = time;
  lastHigh = high;
  lastLow = low;
  base32Into(time, 0, 10);
  base32Into(high, 10, 8);
  base32Into(low, 18, 8);
  return spelled.toString('latin1', 0, 26);
}

/** Random Crockford base32 string (rejection-free: 256 is a multiple of 32). */
function randomCode(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += CROCKFORD_ALPHABET[byte % 32];
  return out;
}

export const newInviteCode = () => randomCode(INVITE_CODE_LENGTH);
/** A group's invite code: 12 characters (60 bits), not worth guessing. */
export const newGroupCode = () => randomCode(GROUP_CODE_LENGTH);
