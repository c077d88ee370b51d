/**
 * The RSA-OAEP-256 key pair clients seal secrets with. Made on first start and kept in the
 * database (private half encrypted with the master key) so every instance and every restart
 * uses the same one; `keyId` changes only when the key is rotated.
 */
import { createHash, createPrivateKey, generateKeyPair, privateDecrypt, constants, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from '../../db/types';
import type { MasterKey } from './master-key';

const generate = promisify(generateKeyPair);
const CACHE_MS = 30_000;

interface ActiveKey {
  keyId: string;
  spki: string;
  privateKey: KeyObject;
}

export class RsaKeyring {
  private active: ActiveKey | null = null;
  private loadedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly master: MasterKey,
  ) {}

  /** The current key; read from the database at most every 30 s, or when forced. */
  async current(force = false): Promise<ActiveKey> {
    if (!force && this.active && Date.now() - this.loadedAt < CACHE_MS) return this.active;
    let row = await this.readActive();
    if (!row) {
      await this.insertNew();
      row = await this.readActive();
    }
    if (!row) throw new Error('no RSA key could be stored');
    if (this.active?.keyId !== row.key_id) {
      const der = this.master.decrypt(row.private_enc, `rsa:${row.key_id}`);
      this.active = { keyId: row.key_id, spki: row.spki, privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }) };
    }
    this.loadedAt = Date.now();
    return this.active;
  }

  /** Retires the current key and makes a new one. */
  async rotate(): Promise<ActiveKey> {
    const now = Date.now();
    await this.db.updateTable('rsa_keys').set({ retired_at: now }).where('retired_at', 'is', null).execute();
    await this.insertNew();
    return this.current(true);
  }

  /**
   * Whether the master key opens every stored private key, retired ones too (`npm run restore`
   * checks a backup's key with it): the ids of those it does not open.
   */
  async unopened(): Promise<{ keys: number; unopened: string[] }> {
    const rows = await this.db.selectFrom('rsa_keys').select(['key_id', 'private_enc']).execute();
    const unopened = rows
      .filter((row) => {
        try {
          this.master.decrypt(row.private_enc, `rsa:${row.key_id}`);
          return false;
        } catch {
          return true;
        }
      })
      .map((row) => row.key_id);
    return { keys: rows.length, unopened };
  }

  /** RSA-OAEP with SHA-256; throws on a wrong key or a damaged ciphertext. */
  decrypt(key: ActiveKey, ciphertext: Buffer): Buffer {
    return privateDecrypt({ key: key.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, ciphertext);
  }

  private readActive() {
    // When two instances race on first start, both insert; the oldest key wins everywhere.
    return this.db
      .selectFrom('rsa_keys')
      .select(['key_id', 'spki', 'private_enc'])
      .where('retired_at', 'is', null)
      .orderBy('created_at')
      .orderBy('key_id')
      .limit(1)
      .executeTakeFirst();
  }

  private async insertNew() {
    const { publicKey, privateKey } = await generate('rsa', { modulusLength: 2048 });
    const spkiDer = publicKey.export({ format: 'der', type: 'spki' });
    const keyId = createHash('sha256').update(spkiDer).digest('base64url').slice(0, 16);
    const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
    await this.db
      .insertInto('rsa_keys')
      .values({
        key_id: keyId,
        spki: spkiDer.toString('base64'),
        private_enc: this.master.encrypt(pkcs8, `rsa:${keyId}`),
        created_at: Date.now(),
        retired_at: null,
      })
      .onConflict((oc) => oc.column('key_id').doNothing())
      .execute();
  }
}
