import { describe, expect, it } from 'vitest';
import { ANNOUNCEMENT_BODY_MAX, ANNOUNCEMENT_TITLE_MAX, type AdminAnnouncement } from '@pa/shared';
import {
  BODY_MAX, TITLE_MAX, announcementBody, announcementTitle, clearLocale, emptyValues, localesWithErrors, sameValues, serverErrors, setText, toTexts, valuesFromAnnouncement, writtenLocales,
} from '../src/features/announcements/lib/announcement-form';
import { localeToShow } from '../src/lib/form-errors';

const saved = (texts: AdminAnnouncement['texts']): AdminAnnouncement => ({ id: 'a1', texts, status: 'draft', pinned: true, publishedAt: null, createdAt: 1, updatedAt: 1 });

describe('announcement editor: inputs → request body', () => {
  it('uses the server’s limits', () => {
    expect([TITLE_MAX, BODY_MAX]).toEqual([ANNOUNCEMENT_TITLE_MAX, ANNOUNCEMENT_BODY_MAX]);
  });

  it('needs one language; a started language needs both title and text; limits are the server’s', () => {
    expect(toTexts(emptyValues())).toEqual({ errors: { texts: 'textsRequired' } });
    let v = setText(emptyValues(), 'fr', 'title', '  Bonjour ');
    expect(toTexts(v)).toEqual({ errors: { 'fr.body': 'required' } });
    v = setText(v, 'fr', 'body', ' Texte\n');
    expect(toTexts(v)).toEqual({ texts: { fr: { title: 'Bonjour', body: 'Texte' } } });
    expect(toTexts(setText(v, 'en', 'title', 'x'.repeat(81))).errors).toEqual({ 'en.title': 'too_long', 'en.body': 'required' });
    expect(toTexts(setText(v, 'fr', 'body', 'y'.repeat(2001))).errors).toEqual({ 'fr.body': 'too_long' });
    expect(toTexts(setText(v, 'fr', 'body', 'y'.repeat(2000))).texts?.fr?.body).toHaveLength(2000);
  });

  it('keeps the order languages were first written in (it decides the fallback)', () => {
    let v = setText(emptyValues(), 'es', 'title', 'Hola');
    v = setText(v, 'es', 'body', 'Texto');
    v = setText(v, 'zh-Hans', 'title', '你好');
    v = setText(v, 'zh-Hans', 'body', '正文');
    expect(Object.keys(toTexts(v).texts!)).toEqual(['es', 'zh-Hans']);
    expect(writtenLocales(clearLocale(v, 'es'))).toEqual(['zh-Hans']);
    const loaded = valuesFromAnnouncement(saved({ fr: { title: 'T', body: 'B' }, en: { title: 'T2', body: 'B2' } }));
    expect(Object.keys(toTexts(loaded).texts!)).toEqual(['fr', 'en']);
    expect(loaded.pinned).toBe(true);
  });

  it('knows unsaved changes, ignoring surrounding spaces', () => {
    const base = valuesFromAnnouncement(saved({ en: { title: 'T', body: 'B' } }));
    expect(sameValues(base, setText(base, 'en', 'title', ' T '))).toBe(true);
    expect(sameValues(base, setText(base, 'en', 'title', 'T!'))).toBe(false);
    expect(sameValues(base, { ...base, pinned: false })).toBe(false);
  });

  it('puts the server’s field errors on the inputs and marks their languages', () => {
    const errors = serverErrors({ 'texts.en.title': 'too_long', 'texts.fr.body': 'too_short', texts: 'required' });
    expect(errors).toEqual({ 'en.title': 'too_long', 'fr.body': 'too_short', texts: 'textsRequired' });
    expect(localesWithErrors(errors)).toEqual(new Set(['en', 'fr']));
    expect(serverErrors({ 'texts.de': 'unknown_field' })).toEqual({ texts: 'unknown_field' });
  });

  it('shows the errors in the language on screen if it has any, else in the first (switch order) that has', () => {
    expect(localeToShow('fr', new Set(['en', 'fr']))).toBe('fr');
    // The switch's order: zh-Hans, zh-Hant, en, fr, es.
    expect(localeToShow('es', new Set(['fr', 'zh-Hant']))).toBe('zh-Hant');
    expect(localeToShow('zh-Hans', new Set(['es', 'en']))).toBe('en');
    expect(localeToShow('es', new Set())).toBe('es');
  });

  it('shows staff the title in their language, else English, else the first one written', () => {
    const texts = { fr: { title: 'Titre', body: 'Corps' }, en: { title: 'Title', body: 'Body' } };
    expect(announcementTitle(texts, 'fr')).toBe('Titre');
    expect(announcementTitle(texts, 'es')).toBe('Title');
    expect(announcementTitle({ fr: texts.fr }, 'es')).toBe('Titre');
    expect(announcementBody(texts, 'zh-Hans')).toBe('Body');
  });
});
