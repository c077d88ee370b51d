import { randomBytes } from 'node:crypto';
import { CROCKFORD_ALPHABET, INVITE_CODE_LENGTH } from '@pa/shared';

let lastTime = 0;
let lastRandom = 0n;
const RANDOM_MAX = (1n << 80n) - 1n;

/**
 * 26-character, time-ordered id (48-bit ms time + 80 random bits, Crockford base32). Monotonic
 * within this process: ids made in the same millisecond increase, so they sort in creation order.
 */
export function newId(now = Date.now()): string {
  let time = now;
  let random: bigint;
  if (time <= lastTime && lastRandom < RANDOM_MAX) {
    time = lastTime;
    random = lastRandom + 1n;
  } else {
    random = BigInt(`0x${randomBytes(10).toString('hex')}`);
  }
  lastTime = time;
  lastRandom = random;
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD_ALPHABET[time % 32] + head;
    time = Math.floor(time / 32);
  }
  let tail = '';
  for (let i = 0; i < 16; i++) {
    tail = CROCKFORD_ALPHABET[Number(random & 31n)] + tail;
    random >>= 5n;
  }
  return head + tail;
}

/** Random Crockford base32 string (rejection-free: 256 is a multiple of 32). */
export function randomCode(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += CROCKFORD_ALPHABET[byte % 32];
  return out;
}

export const newInviteCode = () => randomCode(INVITE_CODE_LENGTH);
