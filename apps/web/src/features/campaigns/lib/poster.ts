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

const CJK_CHARS = '\\u2e80-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\uff00-\\uffef';
/**
 * White space a line may break at: not the no-break spaces (U+00A0, U+2007, U+202F), which keep
 * French "code\u202f:" and "10\u00a0%" together.
 */
const BREAKING_SPACE = '\\t\\n\\v\\f\\r \\u1680\\u2000-\\u2006\\u2008-\\u200a\\u2028\\u2029\\u205f\\u3000';
const SPACES = new RegExp(`[${BREAKING_SPACE}]+`, 'g');
const TOKEN = new RegExp(`[${CJK_CHARS}][，。！？、；：」』）》]?|[^${BREAKING_SPACE}${CJK_CHARS}]+|[${BREAKING_SPACE}]+`, 'g');

/**
 * Breaks text into as many lines as it takes, none wider than `maxWidth`: between words for
 * Latin scripts, between characters for CJK (keeping closing punctuation with the character
 * before it). A single word wider than a line (a long URL) is broken between its characters.
 */
function breakLines(measure: (s: string) => number, text: string, maxWidth: number): string[] {
  const tokens = (text.replace(SPACES, ' ').replace(/^ | $/g, '').match(TOKEN) ?? []).flatMap((token) => splitWide(measure, token, maxWidth));
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
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

/** A token wider than the line, in pieces that fit (white space and tokens that fit stay whole). */
function splitWide(measure: (s: string) => number, token: string, maxWidth: number): string[] {
  if (!token.trim() || measure(token) <= maxWidth) return [token];
  const pieces: string[] = [];
  let piece = '';
  for (const ch of token) {
    if (piece && measure(piece + ch) > maxWidth) {
      pieces.push(piece);
      piece = '';
    }
    piece += ch;
  }
  if (piece) pieces.push(piece);
  // Each piece (but the last) is as wide as a line: the greedy loop puts each on a line of its own.
  return pieces;
}

/**
 * At most `maxLines` lines of `breakLines`; the last one ends with an ellipsis when text is left
 * over. The poster only falls back on this when even its smallest type cannot hold a text.
 */
export function wrapText(measure: (s: string) => number, text: string, maxWidth: number, maxLines: number): string[] {
  const all = breakLines(measure, text, maxWidth);
  if (all.length <= maxLines) return all;
  const lines = all.slice(0, maxLines);
  let last = lines[maxLines - 1]!;
  while (last && measure(`${last}…`) > maxWidth) last = [...last].slice(0, -1).join('');
  lines[maxLines - 1] = `${last.trimEnd()}…`;
  return lines;
}

const BREAK_AFTER = ['，', '、', '。', '；', '：', '！', '？'];

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

/** A text on the poster as laid out: its lines, where they are drawn and the box they fill. */
export interface TextBox {
  role: 'title' | 'subtitle' | 'name' | 'cta' | 'code';
  /** The CSS font the lines are drawn (and were measured) in. */
  font: string;
  size: number;
  lineHeight: number;
  lines: string[];
  /** Top-left of the first line (textBaseline top), the widest line's width, lines × lineHeight. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The area the text must stay in: the space above the card, or the card's text column. */
  area: Area;
  /** True only when even the smallest type could not hold the whole text (the last line ends with "…"). */
  ellipsized: boolean;
}

interface Area {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface TextSpec {
  role: TextBox['role'];
  text: string;
  weight: number;
  /** Preferred and smallest size in px; lines allowed at the preferred size; line height as a ratio; space before. */
  size: number;
  minSize: number;
  maxLines: number;
  leading: number;
  gap: number;
}

export const CARD = { x: 36, y: 1010, w: 678, h: 288 } as const;
const QR_SIZE = 240;
/** The card's text column: right of the QR code, inside the card's padding. */
export const CARD_TEXT: Area = { x: CARD.x + 24 + QR_SIZE + 28, y: CARD.y + 24, w: CARD.w - 24 - QR_SIZE - 28 - 24, h: CARD.h - 48 };
/** The plain design's title and subtitle: the space above the card. */
export const HEAD_TEXT: Area = { x: 60, y: 96, w: 630, h: CARD.y - 96 - 48 };

/** Shrink, then wrap: smaller type first (down to each text's smallest), then more lines. */
const SCALES = [1, 0.93, 0.86, 0.8, 0.74, 0.68, 0.62, 0.56, 0.5];
const EXTRA_LINES = [0, 1, 2, 3];

/**
 * Lays out a group of texts, one below the other, in `area`, centred vertically. Shrink, then
 * wrap: each text takes the largest size (down to its smallest) at which it fits its lines; only
 * when a text does not fit even at its smallest size does it get more lines; when the group is
 * taller than the area, all start smaller. Only when nothing fits is a text cut with "…".
 */
export function layoutTexts(measure: (font: string, text: string) => number, fonts: string, specs: TextSpec[], area: Area): TextBox[] {
  const font = (spec: TextSpec, size: number) => `${spec.weight} ${size}px ${fonts}`;
  const attempt = (scale: number, extra: number, cut: boolean) => {
    let total = 0;
    const blocks: { spec: TextSpec; size: number; font: string; lines: string[]; lineHeight: number; gap: number; width: number; ellipsized: boolean }[] = [];
    for (const spec of specs) {
      if (!spec.text.trim()) continue;
      const allowed = spec.maxLines + extra;
      // Each text shrinks on its own (a long code line does not make the name small), from the group's size down to its smallest.
      let size = Math.max(spec.minSize, Math.round(spec.size * scale));
      let f = font(spec, size);
      let full = breakLines((t) => measure(f, t), spec.text, area.w);
      while (full.length > allowed && size > spec.minSize) {
        size -= 1;
        f = font(spec, size);
        full = breakLines((t) => measure(f, t), spec.text, area.w);
      }
      const m = (t: string) => measure(f, t);
      const lines = full.length <= allowed ? full : cut ? wrapText(m, spec.text, area.w, allowed) : null;
      if (!lines) return null;
      const lineHeight = Math.round(size * spec.leading);
      const gap = blocks.length ? Math.round(spec.gap * scale) : 0;
      total += gap + lines.length * lineHeight;
      blocks.push({ spec, size, font: f, lines, lineHeight, gap, width: Math.max(0, ...lines.map(m)), ellipsized: lines !== full });
    }
    if (total > area.h && !cut) return null;
    let y = area.y + Math.max(0, Math.round((area.h - total) / 2));
    return blocks.map((b): TextBox => {
      y += b.gap;
      const box = { role: b.spec.role, font: b.font, size: b.size, lineHeight: b.lineHeight, lines: b.lines, x: area.x, y, width: b.width, height: b.lines.length * b.lineHeight, area, ellipsized: b.ellipsized };
      y += box.height;
      return box;
    });
  };
  for (const extra of EXTRA_LINES) {
    for (const scale of SCALES) {
      const fit = attempt(scale, extra, false);
      if (fit) return fit;
    }
  }
  return attempt(SCALES[SCALES.length - 1]!, 0, true)!;
}

/** Every text of a poster, laid out: the plain design's title and subtitle (a template has its own), and the card's. */
export function layoutPoster(measure: (font: string, text: string) => number, fonts: string, content: Omit<PosterContent, 'url'>): TextBox[] {
  const head = content.templateUrl
    ? []
    : layoutTexts(measure, fonts, [
      { role: 'title', text: content.title, weight: 700, size: 64, minSize: 40, maxLines: 3, leading: 1.3, gap: 0 },
      { role: 'subtitle', text: content.subtitle, weight: 400, size: 32, minSize: 22, maxLines: 6, leading: 1.5, gap: 24 },
    ], HEAD_TEXT);
  const card = layoutTexts(measure, fonts, [
    // The code is what people type in: below 24 px it is better on a second line ("Code d’invitation :" / "7KX2M9QD").
    { role: 'name', text: content.name, weight: 700, size: 38, minSize: 26, maxLines: 2, leading: 1.3, gap: 0 },
    { role: 'cta', text: content.cta, weight: 400, size: 30, minSize: 22, maxLines: 2, leading: 1.3, gap: 8 },
    { role: 'code', text: content.codeLine, weight: 600, size: 30, minSize: 24, maxLines: 1, leading: 1.3, gap: 10 },
  ], CARD_TEXT);
  return [...head, ...card];
}

/** Draws the poster; returns its texts as laid out (so what was drawn can be checked against the canvas). */
export async function drawPoster(canvas: HTMLCanvasElement, content: PosterContent): Promise<TextBox[]> {
  canvas.width = POSTER_WIDTH;
  canvas.height = POSTER_HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas 2d unavailable');
  const fonts = fontStack();
  // System fonts need no download, but web fonts named in the stack might: wait for the glyphs we use.
  const sample = `${content.title}${content.subtitle}${content.name}${content.cta}${content.codeLine}`;
  await Promise.all([700, 400, 600].map((w) => document.fonts?.load(`${w} 32px ${fonts}`, sample).catch(() => [])));

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
  }

  // The card: QR on the left, who and what on the right.
  ctx.save();
  ctx.shadowColor = 'rgba(0,0,0,0.18)';
  ctx.shadowBlur = 24;
  ctx.fillStyle = '#ffffff';
  roundRect(ctx, CARD.x, CARD.y, CARD.w, CARD.h, 24);
  ctx.fill();
  ctx.restore();

  const qr = document.createElement('canvas');
  await QRCode.toCanvas(qr, content.url, { ...QR_OPTIONS, margin: 1, width: QR_SIZE });
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(qr, CARD.x + 24, CARD.y + (CARD.h - QR_SIZE) / 2, QR_SIZE, QR_SIZE);
  ctx.imageSmoothingEnabled = true;

  const boxes = layoutPoster((font, text) => {
    ctx.font = font;
    return ctx.measureText(text).width;
  }, fonts, content);
  ctx.textBaseline = 'top';
  for (const box of boxes) {
    ctx.font = box.font;
    ctx.fillStyle = COLORS[box.role];
    box.lines.forEach((line, i) => ctx.fillText(line, box.x, box.y + i * box.lineHeight));
  }
  return boxes;
}

const COLORS: Record<TextBox['role'], string> = { title: '#ffffff', subtitle: 'rgba(255,255,255,0.9)', name: '#1f2329', cta: '#4e5969', code: '#1677ff' };

export function canvasToPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob failed'))), 'image/png'));
}
