/** The promoter's proof for a submission bounty: checked as the server checks it (BountySubmissionCreateSchema). */
import type { BountySubmissionCreate } from '@pa/shared';

export const PROOF_TEXT_MAX = 2000;
export const PROOF_URL_MAX = 2000;

export interface ProofValues { text: string; url: string; imageId: string | null }
export type ProofErrors = Partial<Record<'text' | 'url', 'required' | 'tooLong' | 'url'>>;

/** A web address as typed: "example.com/post" is read as https://example.com/post. */
export function normalizeUrl(text: string): string {
  const raw = text.normalize('NFKC').trim();
  if (!raw) return '';
  return /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
}

function isWebUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.includes('.');
  } catch {
    return false;
  }
}

export function toProofBody(v: ProofValues): { body: BountySubmissionCreate; errors?: undefined } | { body?: undefined; errors: ProofErrors } {
  const errors: ProofErrors = {};
  const text = v.text.trim();
  if (!text) errors.text = 'required';
  else if (text.length > PROOF_TEXT_MAX) errors.text = 'tooLong';
  const url = normalizeUrl(v.url);
  if (url && (url.length > PROOF_URL_MAX || !isWebUrl(url))) errors.url = 'url';
  if (errors.text || errors.url) return { errors };
  return { body: { text, ...(url ? { url } : {}), ...(v.imageId ? { imageId: v.imageId } : {}) } };
}
