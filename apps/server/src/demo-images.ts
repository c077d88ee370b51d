/**
 * The demo campaign's pictures, drawn in code so the repository carries no binary: a 16:9 cover
 * and a 750×1334 poster template (the poster's own size), both PNG — an upload type the server
 * accepts (domain/image-sniff.ts) — with a glass of iced tea under a sun and "DEMO" written across,
 * so nobody takes them for a real campaign's.
 */
import { deflateSync } from 'node:zlib';

type Rgb = [number, number, number];

class Canvas {
  readonly pixels: Uint8Array;
  constructor(readonly width: number, readonly height: number) {
    this.pixels = new Uint8Array(width * height * 3);
  }

  /** Blends `color` into one pixel with coverage `alpha` (0…1). */
  blend(x: number, y: number, color: Rgb, alpha = 1) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || alpha <= 0) return;
    const i = (y * this.width + x) * 3;
    const a = Math.min(1, alpha);
    for (let c = 0; c < 3; c++) this.pixels[i + c] = Math.round(this.pixels[i + c]! * (1 - a) + color[c]! * a);
  }

  verticalGradient(top: Rgb, bottom: Rgb) {
    for (let y = 0; y < this.height; y++) {
      const t = y / (this.height - 1);
      const color: Rgb = [0, 1, 2].map((c) => Math.round(top[c]! + (bottom[c]! - top[c]!) * t)) as Rgb;
      for (let x = 0; x < this.width; x++) this.blend(x, y, color);
    }
  }

  /** A disc with a one-pixel soft edge. */
  circle(cx: number, cy: number, r: number, color: Rgb, alpha = 1) {
    for (let y = Math.floor(cy - r - 1); y <= cy + r + 1; y++) {
      for (let x = Math.floor(cx - r - 1); x <= cx + r + 1; x++) {
        const edge = r - Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        if (edge > -1) this.blend(x, y, color, alpha * Math.min(1, edge + 1));
      }
    }
  }

  /** A rectangle with rounded corners of radius `r`. */
  roundRect(x0: number, y0: number, w: number, h: number, r: number, color: Rgb, alpha = 1) {
    for (let y = Math.floor(y0); y < y0 + h; y++) {
      for (let x = Math.floor(x0); x < x0 + w; x++) {
        const dx = Math.max(x0 + r - (x + 0.5), 0, x + 0.5 - (x0 + w - r));
        const dy = Math.max(y0 + r - (y + 0.5), 0, y + 0.5 - (y0 + h - r));
        const edge = r - Math.hypot(dx, dy);
        if (edge > -1) this.blend(x, y, color, alpha * Math.min(1, edge + 1));
      }
    }
  }

  /** Capital letters from a 5×7 bitmap font, each dot `scale` pixels wide, centred on `cx`. */
  text(word: string, cx: number, y0: number, scale: number, color: Rgb, alpha = 1) {
    const advance = 6 * scale;
    let x0 = Math.round(cx - (word.length * advance - scale) / 2);
    for (const ch of word) {
      const rows = GLYPHS[ch] ?? [];
      rows.forEach((bits, row) => {
        for (let col = 0; col < 5; col++) {
          if (bits[col] === '#') this.roundRect(x0 + col * scale, y0 + row * scale, scale, scale, scale * 0.2, color, alpha);
        }
      });
      x0 += advance;
    }
  }

  png(): Buffer {
    const stride = this.width * 3;
    const raw = Buffer.alloc((stride + 1) * this.height);
    for (let y = 0; y < this.height; y++) {
      raw[y * (stride + 1)] = 0; // filter: none
      raw.set(this.pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
    }
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter method, no interlace
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw, { level: 9 })),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

const GLYPHS: Record<string, string[]> = {
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const SKY_TOP: Rgb = [255, 183, 77];
const SKY_BOTTOM: Rgb = [255, 236, 179];
const SUN: Rgb = [255, 245, 200];
const TEA: Rgb = [196, 98, 16];
const GLASS: Rgb = [255, 255, 255];
const LEAF: Rgb = [67, 160, 71];
const INK: Rgb = [120, 53, 15];

/** A glass of iced tea with a mint leaf, its bottom-left corner at (x, y + h). */
function glass(c: Canvas, x: number, y: number, w: number, h: number) {
  c.roundRect(x - w * 0.06, y - h * 0.04, w * 1.12, h * 1.06, w * 0.12, GLASS, 0.55);
  c.roundRect(x, y + h * 0.18, w, h * 0.82, w * 0.08, TEA, 0.92);
  for (const [ix, iy] of [[0.15, 0.26], [0.52, 0.34], [0.28, 0.5]] as const) c.roundRect(x + w * ix, y + h * iy, w * 0.3, w * 0.3, w * 0.06, GLASS, 0.45);
  c.roundRect(x + w * 0.62, y - h * 0.22, w * 0.07, h * 0.5, w * 0.03, [229, 57, 53]); // the straw
  c.circle(x + w * 0.18, y + h * 0.14, w * 0.13, LEAF);
  c.circle(x + w * 0.32, y + h * 0.1, w * 0.11, LEAF);
}

/** The cover: 960×540 (16:9, as the campaign page shows it). */
export function demoCoverPng(): Buffer {
  const c = new Canvas(960, 540);
  c.verticalGradient(SKY_TOP, SKY_BOTTOM);
  c.circle(760, 130, 150, SUN, 0.35);
  c.circle(760, 130, 90, SUN, 0.9);
  glass(c, 150, 170, 190, 300);
  c.roundRect(0, 470, 960, 70, 0, [255, 255, 255], 0.35);
  c.text('DEMO', 620, 330, 22, INK, 0.85);
  return c.png();
}

/** The poster template: 750×1334; the poster draws its white card with the QR code over the lower part. */
export function demoPosterTemplatePng(): Buffer {
  const c = new Canvas(750, 1334);
  c.verticalGradient(SKY_TOP, [255, 224, 178]);
  c.circle(560, 230, 220, SUN, 0.3);
  c.circle(560, 230, 130, SUN, 0.9);
  glass(c, 120, 260, 230, 380);
  c.text('DEMO', 375, 730, 24, INK, 0.85);
  return c.png();
}
