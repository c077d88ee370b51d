import { createHash } from 'node:crypto';

/**
 * What a merchant sends as `customerEmailSha256` (docs/integrations.md): the SHA-256 (hex) of the
 * e-mail trimmed and in lower case. Self-referrals compare it with the promoter's account.
 */
export const emailSha256 = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
