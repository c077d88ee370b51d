import { randomBytes } from 'node:crypto';
import { CROCKFORD_ALPHABET, INVITE_CODE_LENGTH } from '@pa/shared';

/** 26-character, time-ordered id (48-bit ms time + 80 random bits, Crockford base32). */
export function newId(now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD_ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time + randomCode(16);
}

/** Random Crockford base32 string (rejection-free: 256 is a multiple of 32). */
export function randomCode(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += CROCKFORD_ALPHABET[byte % 32];
  return out;
}

export const newInviteCode = () => randomCode(INVITE_CODE_LENGTH);
