import { describe, expect, it } from 'vitest';
import { wrapText } from '../src/features/promote/lib/poster';

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

  it('returns nothing for empty text', () => {
    expect(wrapText(measure, '   ', 10, 2)).toEqual([]);
  });
});
