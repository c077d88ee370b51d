/**
 * Cover and poster images over the server's 2 MB are made smaller in the browser before upload
 * (a canvas), instead of refused: drawn at most 4096 px on the long side, then 80 % smaller each
 * try until the encoded file fits. JPEG and WebP keep their type (quality 0.85); a PNG stays a PNG
 * while it can, and becomes a JPEG when even the smaller PNG is too large.
 */
const MAX_SIDE = 4096;
const STEP = 0.8;
const TRIES = 8;
const QUALITY = 0.85;

/** The size to draw an image at: its own, or scaled so its longer side is at most `maxSide`. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The tries in order: each one's longer side and the type to encode as. */
export function shrinkPlan(width: number, height: number, type: string): { maxSide: number; type: string }[] {
  const plan: { maxSide: number; type: string }[] = [];
  let side = Math.min(MAX_SIDE, Math.max(width, height));
  for (let i = 0; i < TRIES; i++) {
    // A PNG gets one try as PNG (a smaller size), then JPEG.
    plan.push({ maxSide: Math.round(side), type: type === 'image/png' && i > 0 ? 'image/jpeg' : type });
    side *= STEP;
  }
  return plan;
}

const encode = (canvas: HTMLCanvasElement, type: string) => new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, QUALITY));

/** The file as it is when it fits; else a smaller one that does, or null when none could be made. */
export async function shrinkImage(file: File, maxBytes: number): Promise<File | null> {
  if (file.size <= maxBytes) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  try {
    const canvas = document.createElement('canvas');
    for (const step of shrinkPlan(bitmap.width, bitmap.height, file.type)) {
      const size = fitWithin(bitmap.width, bitmap.height, step.maxSide);
      canvas.width = size.width;
      canvas.height = size.height;
      const g = canvas.getContext('2d');
      if (!g) return null;
      if (step.type === 'image/jpeg') {
        // JPEG has no transparency: white behind it rather than black.
        g.fillStyle = '#fff';
        g.fillRect(0, 0, size.width, size.height);
      }
      g.drawImage(bitmap, 0, 0, size.width, size.height);
      const blob = await encode(canvas, step.type);
      if (blob && blob.size <= maxBytes && blob.type === step.type) {
        const name = step.type === file.type ? file.name : file.name.replace(/\.[^.]+$/, '') + '.jpg';
        return new File([blob], name, { type: step.type });
      }
    }
    return null;
  } finally {
    bitmap.close();
  }
}
