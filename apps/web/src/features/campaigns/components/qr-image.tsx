import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** Error correction M: survives a little blur or a crease on paper while staying easy to scan. */
export const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;

/** The QR code of `value` as an image (a PNG data URL, so it can be pressed and saved). */
export function QrImage({ value, size = 200, label }: { value: string; size?: number; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(value, { ...QR_OPTIONS, width: size * 2 }).then((url) => live && setSrc(url), () => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [value, size]);
  return (
    <div className="qr-image" style={{ width: size, height: size }}>
      {src ? <img src={src} width={size} height={size} alt={label} data-testid="qr-image" data-value={value} /> : null}
    </div>
  );
}
