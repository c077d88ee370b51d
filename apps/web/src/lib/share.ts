/**
 * The system share sheet where the browser has one (with a file where it may carry files),
 * reported as what happened so the caller can fall back to copy or download.
 */
type ShareOutcome = 'shared' | 'cancelled' | 'unsupported';

export async function shareNatively(data: { title?: string; text?: string; url?: string; files?: File[] }): Promise<ShareOutcome> {
  if (typeof navigator.share !== 'function') return 'unsupported';
  const payload: ShareData = { ...data };
  if (data.files?.length && !(navigator.canShare?.({ files: data.files }) ?? false)) delete payload.files;
  if (!payload.files && !payload.text && !payload.url) return 'unsupported';
  try {
    await navigator.share(payload);
    return 'shared';
  } catch (error) {
    // AbortError: the user closed the sheet. Anything else: the browser refused (e.g. no user gesture).
    return (error as Error).name === 'AbortError' ? 'cancelled' : 'unsupported';
  }
}

/** Saves a blob as a file through a temporary download link. */
export function downloadBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
