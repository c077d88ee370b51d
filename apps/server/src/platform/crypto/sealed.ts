/**
 * Opens a `Sealed` secret: RSA-OAEP-SHA256 over `{"v","ts","nonce"}`. The key id must be the
 * current one, the timestamp within 5 minutes, and the nonce never seen before.
 */
import type { Sealed } from '@pa/shared';
import type { Db } from '../../db/types';
import { AppError } from '../errors';
import type { RsaKeyring } from './rsa-keys';

const SEAL_FRESHNESS_MS = 5 * 60_000;

export class SealOpener {
  constructor(
    private readonly db: Db,
    private readonly keyring: RsaKeyring,
  ) {}

  /** Returns the secret; throws ENCRYPTION_INVALID (key or format) or REPLAY_DETECTED (stale or reused). */
  async open(sealed: Sealed, field: string, now = Date.now()): Promise<string> {
    let key = await this.keyring.current();
    if (sealed.keyId !== key.keyId) {
      key = await this.keyring.current(true); // another instance may have rotated
      if (sealed.keyId !== key.keyId) throw new AppError('ENCRYPTION_INVALID', { [field]: 'stale_key' });
    }
    let payload: unknown;
    try {
      payload = JSON.parse(this.keyring.decrypt(key, Buffer.from(sealed.ciphertext, 'base64')).toString('utf8'));
    } catch {
      throw new AppError('ENCRYPTION_INVALID', { [field]: 'invalid' });
    }
    const p = payload as { v?: unknown; ts?: unknown; nonce?: unknown };
    if (
      typeof p !== 'object' || p === null ||
      typeof p.v !== 'string' || typeof p.ts !== 'number' || !Number.isFinite(p.ts) ||
      typeof p.nonce !== 'string' || Buffer.from(p.nonce, 'base64').length !== 16
    ) {
      throw new AppError('ENCRYPTION_INVALID', { [field]: 'invalid' });
    }
    if (Math.abs(now - p.ts) > SEAL_FRESHNESS_MS) throw new AppError('REPLAY_DETECTED', { [field]: 'stale' });
    const inserted = await this.db
      .insertInto('used_nonces')
      .values({ nonce: p.nonce, expires_at: p.ts + SEAL_FRESHNESS_MS + 60_000 })
      .onConflict((oc) => oc.column('nonce').doNothing())
      .returning('nonce')
      .executeTakeFirst();
    if (!inserted) throw new AppError('REPLAY_DETECTED', { [field]: 'replayed' });
    return p.v;
  }
}
