import { describe, expect, it } from 'vitest';
import { CARD, CARD_TEXT, HEAD_TEXT, layoutPoster, layoutTexts, wrapText } from '../src/features/campaigns/lib/poster';

/** One unit per character: CJK counts 2 (full width), everything else 1. */
const measure = (s: string) => [...s].reduce((w, ch) => w + (/[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 2 : 1), 0);

describe('poster text wrapping', () => {
  it('breaks Latin text between words, never inside one', () => {
    expect(wrapText(measure, 'Rejoignez mon équipe sur Assistant de promotion', 20, 5)).toEqual(['Rejoignez mon équipe', 'sur Assistant de', 'promotion']);
  });

  it('breaks Chinese text between characters and keeps closing punctuation with its character', () => {
    const lines = wrapText(measure, '加入我的团队，一起用推广助手', 12, 5);
    expect(lines).toEqual(['加入我的团', '队，一起用推', '广助手']);
    expect(lines.join('')).toBe('加入我的团队，一起用推广助手');
  });

  it('prefers to break Chinese after a comma in the second half of a line', () => {
    expect(wrapText(measure, '加入我的团队，一起用推广助手', 16, 5)).toEqual(['加入我的团队，', '一起用推广助手']);
  });

  it('mixes scripts and collapses white space', () => {
    expect(wrapText(measure, '  夏日茶饮   Summer   Tea  ', 10, 3)).toEqual(['夏日茶饮', 'Summer Tea']);
  });

  it('ends the last allowed line with an ellipsis when text is left over', () => {
    const lines = wrapText(measure, 'one two three four five six seven', 9, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    for (const l of lines) expect(measure(l)).toBeLessThanOrEqual(9);
  });

  it('cuts a single word wider than the line to fit', () => {
    const [line] = wrapText(measure, 'Supercalifragilisticexpialidocious', 10, 1);
    expect(measure(line!)).toBeLessThanOrEqual(10);
    expect(line!.endsWith('…')).toBe(true);
  });

  it('never breaks at a no-break space: French "code\u202f:" and "10\u00a0%" stay together', () => {
    // The old breaker split "invitation" from ":" and "10" from "%" here.
    expect(wrapText(measure, 'Code d’invitation\u202f: 7KX2M9QD', 17, 5)).toEqual(['Code', 'd’invitation\u202f:', '7KX2M9QD']);
    expect(wrapText(measure, 'Gagnez 10\u00a0% par vente', 10, 5)).toEqual(['Gagnez', '10\u00a0% par', 'vente']);
  });

  it('returns nothing for empty text', () => {
    expect(wrapText(measure, '   ', 10, 2)).toEqual([]);
  });
});

/** A font's px size × 0.55 per Latin character, × 1 per CJK character (a rough sans-serif). */
const fontMeasure = (font: string, text: string) => {
  const size = Number(/(\d+)px/.exec(font)![1]);
  return [...text].reduce((w, ch) => w + (/[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 1 : 0.55) * size, 0);
};
const inside = (b: { x: number; y: number; width: number; height: number; area: { x: number; y: number; w: number; h: number } }) =>
  b.x >= b.area.x && b.y >= b.area.y && b.x + b.width <= b.area.x + b.area.w && b.y + b.height <= b.area.y + b.area.h;
const spec = { role: 'code' as const, weight: 600, size: 30, minSize: 20, maxLines: 1, leading: 1.3, gap: 0 };

describe('poster layout: shrink, then wrap, never cut', () => {
  it('keeps a line that fits at its size', () => {
    const [box] = layoutTexts(fontMeasure, 'sans-serif', [{ ...spec, text: 'Code: AB12' }], CARD_TEXT);
    expect(box).toMatchObject({ size: 30, lines: ['Code: AB12'], ellipsized: false });
  });

  it('shrinks the French invite code line to one line rather than cutting it', () => {
    const text = 'Code d’invitation : 7KX2M9QD';
    expect(fontMeasure('600 30px x', text)).toBeGreaterThan(CARD_TEXT.w); // it did not fit at 30 px (it was cut with "…")
    const [box] = layoutTexts(fontMeasure, 'sans-serif', [{ ...spec, text }], CARD_TEXT);
    expect(box!.lines).toEqual([text]);
    expect(box!.size).toBeLessThan(30);
    expect(box!.ellipsized).toBe(false);
    expect(inside(box!)).toBe(true);
  });

  it('wraps once the smallest size is not enough, still whole', () => {
    const text = 'Scannez le code avec l’appareil photo de votre téléphone pour vous inscrire';
    expect(fontMeasure('600 20px x', text)).toBeGreaterThan(CARD_TEXT.w); // one line even at the smallest size is too wide
    const [box] = layoutTexts(fontMeasure, 'sans-serif', [{ ...spec, text, maxLines: 1 }], CARD_TEXT);
    expect(box!.lines.length).toBeGreaterThan(1);
    expect(box!.lines.join(' ')).toBe(text);
    expect(box!.ellipsized).toBe(false);
    expect(inside(box!)).toBe(true);
  });

  it('fits a whole card (a 32-character name, call to action, code) in every script, inside the card', () => {
    for (const content of [
      { name: '名'.repeat(32), cta: '扫码注册，加入我的团队', codeLine: '邀请码：7KX2M9QD' },
      { name: 'Bartholomew Featherstonehaugh Jr', cta: 'Scannez le code pour vous inscrire', codeLine: 'Code d’invitation : 7KX2M9QD' },
      { name: 'María José', cta: 'Escanea el código para registrarte', codeLine: 'Código de invitación: 7KX2M9QD' },
    ]) {
      const boxes = layoutPoster(fontMeasure, 'sans-serif', { templateUrl: null, title: 'Rejoignez mon équipe sur Assistant de promotion', subtitle: 'Partagez des liens et des affiches, suivez chaque clic et gagnez sur ce que vous apportez.', ...content });
      expect(boxes.map((b) => b.role)).toEqual(['title', 'subtitle', 'name', 'cta', 'code']);
      for (const b of boxes) {
        expect(b.ellipsized, `${b.role}: ${b.lines.join('|')}`).toBe(false);
        expect(inside(b), b.role).toBe(true);
        expect(b.area === HEAD_TEXT || (b.area === CARD_TEXT && b.x + b.width <= CARD.x + CARD.w)).toBe(true);
      }
      // Texts of one group do not overlap.
      for (let i = 1; i < boxes.length; i++) if (boxes[i]!.area === boxes[i - 1]!.area) expect(boxes[i]!.y).toBeGreaterThanOrEqual(boxes[i - 1]!.y + boxes[i - 1]!.height);
    }
  });

  it('shrinks only the text that needs it: a long code line leaves the name at its size', () => {
    const boxes = layoutPoster(fontMeasure, 'sans-serif', { templateUrl: 'x.png', title: '', subtitle: '', name: '李雷', cta: 'Scannez le code pour vous inscrire', codeLine: 'Code d’invitation\u202f: 7KX2M9QD' });
    expect(boxes.map((b) => [b.role, b.size])).toEqual([['name', 38], ['cta', 30], ['code', 30]]);
    // Too wide on one line even at its smallest (24 px): two lines, each as large as fits; the no-break space keeps ":" with its word.
    expect(boxes[2]!.lines).toEqual(['Code d’invitation\u202f:', '7KX2M9QD']);
  });

  it('cuts with "…" only what cannot fit at the smallest size, and says so', () => {
    const boxes = layoutTexts(fontMeasure, 'sans-serif', [{ ...spec, role: 'subtitle', text: 'word '.repeat(2000), maxLines: 6, size: 32, minSize: 22 }], HEAD_TEXT);
    expect(boxes[0]!.ellipsized).toBe(true);
    expect(boxes[0]!.lines.at(-1)!.endsWith('…')).toBe(true);
    expect(inside(boxes[0]!)).toBe(true);
  });
});
