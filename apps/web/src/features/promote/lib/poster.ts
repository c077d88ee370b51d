/**
 * The share poster: 750×1334 (the usual phone-poster size in distribution apps), drawn on a
 * canvas — the campaign's template (or a plain gradient with the title), then a white card with
 * the promoter's QR code, name, a call to action and the link or invite code.
 */
import QRCode from 'qrcode';
import { QR_OPTIONS } from '../components/qr-image';

export const POSTER_WIDTH = 750;
export const POSTER_HEIGHT = 1334;

export interface PosterContent {
  /** The tracked link or invite link the QR code opens. */
  url: string;
  /** The template image's URL (same origin, so the canvas stays exportable), or null for the plain design. */
  templateUrl: string | null;
  /** Title and subtitle of the plain design (the campaign's name and description, or the invite line). */
  title: string;
  subtitle: string;
  /** The promoter's name, the call to action and the code line ("Code: SUMMER24"). */
  name: string;
  cta: string;
  codeLine: string;
}

/** The font stack of the page (system CJK fonts included), so Chinese, French and Spanish all have glyphs. */
function fontStack(): string {
  const css = getComputedStyle(document.documentElement).getPropertyValue('--adm-font-family').trim();
  return css || 'system-ui, sans-serif';
}

const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;
const TOKEN = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef][，。！？、；：」』）》]?|[^\s\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+|\s+/g;

/**
 * Breaks text into lines no wider than `maxWidth`: between words for Latin scripts, between
 * characters for CJK (keeping closing punctuation with the character before it). The last
 * allowed line ends with an ellipsis when text is left over.
 */
export function wrapText(measure: (s: string) => number, text: string, maxWidth: number, maxLines: number): string[] {
  const tokens = text.replace(/\s+/g, ' ').trim().match(TOKEN) ?? [];
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    const next = line + token;
    if (measure(next.trimEnd()) <= maxWidth || !line.trim()) {
      line = next;
      continue;
    }
    // Chinese reads best broken after a comma or full stop: prefer that when it is in the line's second half.
    const cut = Math.max(...BREAK_AFTER.map((p) => line.lastIndexOf(p)));
    if (cut >= 0 && cut + 1 < line.length && cut + 1 >= line.length / 2) {
      lines.push(line.slice(0, cut + 1));
      line = line.slice(cut + 1) + token;
    } else {
      lines.push(line.trimEnd());
      line = token.trim() ? token : '';
    }
    if (lines.length === maxLines) break;
  }
  if (lines.length < maxLines && line.trim()) lines.push(line.trimEnd());
  const used = lines.join(' ').replace(/\s+/g, '');
  if (used.length < text.replace(/\s+/g, '').length && lines.length > 0) {
    let last = lines[lines.length - 1]!;
    while (last && measure(`${last}…`) > maxWidth) last = [...last].slice(0, -1).join('');
    lines[lines.length - 1] = `${last.trimEnd()}…`;
  }
  // A single token wider than the line (a long URL or word) is cut to fit.
  return lines.map((l) => {
    let s = l;
    while (measure(s) > maxWidth && s.length > 1) s = `${[...s].slice(0, -2).join('')}…`;
    return s;
  });
}

const BREAK_AFTER = ['，', '、', '。', '；', '：', '！', '？'];

export const isCjk = (s: string) => CJK.test(s);

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`could not load ${src}`));
    img.src = src;
  });
}

function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** Draws the image to cover the whole canvas, centred, cropping what does not fit. */
function drawCover(ctx: CanvasRenderingContext2D, img: HTMLImageElement) {
  const scale = Math.max(POSTER_WIDTH / img.naturalWidth, POSTER_HEIGHT / img.naturalHeight);
  const w = img.naturalWidth * scale;
  const h = img.naturalHeight * scale;
  ctx.drawImage(img, (POSTER_WIDTH - w) / 2, (POSTER_HEIGHT - h) / 2, w, h);
}

export async function drawPoster(canvas: HTMLCanvasElement, content: PosterContent): Promise<void> {
  canvas.width = POSTER_WIDTH;
  canvas.height = POSTER_HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas 2d unavailable');
  const fonts = fontStack();
  const font = (weight: number, size: number) => `${weight} ${size}px ${fonts}`;
  // System fonts need no download, but web fonts named in the stack might: wait for the glyphs we use.
  const sample = `${content.title}${content.subtitle}${content.name}${content.cta}${content.codeLine}`;
  await Promise.all([font(700, 56), font(400, 30), font(600, 34)].map((f) => document.fonts?.load(f, sample).catch(() => [])));

  const template = content.templateUrl ? await loadImage(content.templateUrl) : null;
  if (template) {
    drawCover(ctx, template);
  } else {
    const g = ctx.createLinearGradient(0, 0, POSTER_WIDTH, POSTER_HEIGHT);
    g.addColorStop(0, '#0e4fb3');
    g.addColorStop(0.55, '#1677ff');
    g.addColorStop(1, '#69b1ff');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, POSTER_WIDTH, POSTER_HEIGHT);
    ctx.fillStyle = 'rgba(255,255,255,0.08)';
    ctx.beginPath();
    ctx.arc(640, 180, 260, 0, Math.PI * 2);
    ctx.arc(80, 820, 200, 0, Math.PI * 2);
    ctx.fill();
    ctx.textBaseline = 'top';
    // The text block sits in the middle of the space above the card.
    ctx.font = font(700, 64);
    const titleLines = wrapText((s) => ctx.measureText(s).width, content.title, 630, 4).length;
    ctx.font = font(400, 32);
    const subtitleLines = wrapText((s) => ctx.measureText(s).width, content.subtitle, 630, 6).length;
    const blockHeight = titleLines * 84 + (subtitleLines ? 24 + subtitleLines * 48 : 0);
    const top = Math.max(120, Math.round((1010 - blockHeight) / 2) - 40);
    const below = drawLines(ctx, content.title, { font: font(700, 64), color: '#ffffff', x: 60, y: top, width: 630, maxLines: 4, lineHeight: 84 });
    drawLines(ctx, content.subtitle, { font: font(400, 32), color: 'rgba(255,255,255,0.9)', x: 60, y: below + 24, width: 630, maxLines: 6, lineHeight: 48 });
  }

  // The card: QR on the left, who and what on the right.
  const card = { x: 36, y: 1010, w: 678, h: 288 };
  ctx.save();
  ctx.shadowColor = 'rgba(0,0,0,0.18)';
  ctx.shadowBlur = 24;
  ctx.fillStyle = '#ffffff';
  roundRect(ctx, card.x, card.y, card.w, card.h, 24);
  ctx.fill();
  ctx.restore();

  const qrSize = 240;
  const qr = document.createElement('canvas');
  await QRCode.toCanvas(qr, content.url, { ...QR_OPTIONS, margin: 1, width: qrSize });
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(qr, card.x + 24, card.y + 24, qrSize, qrSize);
  ctx.imageSmoothingEnabled = true;

  const textX = card.x + 24 + qrSize + 28;
  const textW = card.x + card.w - 24 - textX;
  ctx.textBaseline = 'top';
  let y = drawLines(ctx, content.name, { font: font(700, 38), color: '#1f2329', x: textX, y: card.y + 40, width: textW, maxLines: 2, lineHeight: 50 });
  y = drawLines(ctx, content.cta, { font: font(400, 30), color: '#4e5969', x: textX, y: y + 8, width: textW, maxLines: 2, lineHeight: 40 });
  drawLines(ctx, content.codeLine, { font: font(600, 30), color: '#1677ff', x: textX, y: y + 10, width: textW, maxLines: 1, lineHeight: 40 });
}

/** Wraps `text` into at most `maxLines` lines at (x, y) and returns the y below the last one. */
function drawLines(ctx: CanvasRenderingContext2D, text: string, o: { font: string; color: string; x: number; y: number; width: number; maxLines: number; lineHeight: number }): number {
  ctx.font = o.font;
  ctx.fillStyle = o.color;
  let y = o.y;
  for (const line of wrapText((s) => ctx.measureText(s).width, text, o.width, o.maxLines)) {
    ctx.fillText(line, o.x, y);
    y += o.lineHeight;
  }
  return y;
}

export function canvasToPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob failed'))), 'image/png'));
}
