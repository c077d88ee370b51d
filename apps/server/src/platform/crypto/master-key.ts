/**
 * The server's symmetric key (AES-256-GCM) for secrets at rest: the RSA private key now, payout
 * account numbers later. Kept outside the database: APP_SECRET, or a file made once in DATA_DIR.
 * Several instances must share it (set APP_SECRET, or share the data folder).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Where the key is kept when APP_SECRET is unset. */
export function masterKeyFile(dataDir: string): string {
  return path.join(dataDir, 'master.key');
}

export class MasterKey {
  private constructor(private readonly key: Buffer) {}

  static load(options: { appSecret: string | null; dataDir: string }): MasterKey {
    if (options.appSecret) return new MasterKey(Buffer.from(options.appSecret, 'base64'));
    const file = masterKeyFile(options.dataDir);
    fs.mkdirSync(options.dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return MasterKey.parse(fs.readFileSync(file, 'utf8'), file);
  }

  /** A key file's text (32 bytes in base64, as master.key holds it); `source` names it in the error. */
  static parse(text: string, source: string): MasterKey {
    const key = Buffer.from(text.trim(), 'base64');
    if (key.length !== 32) throw new Error(`${source} does not hold a 32-byte base64 key.`);
    return new MasterKey(key);
  }

  static fromBytes(key: Buffer): MasterKey {
    return new MasterKey(key);
  }

  /** A secret derived for one purpose (HMAC-SHA256 of the label), the same on every instance. */
  derive(label: string): Buffer {
    return createHmac('sha256', this.key).update(label).digest();
  }

  /** "v1.<iv>.<tag>.<ciphertext>" in base64url; `aad` binds the value to its purpose. */
  encrypt(plaintext: Buffer | string, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(sealed: string, aad: string): Buffer {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  }
}
