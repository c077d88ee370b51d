/**
 * The texts loader (src/i18n/index.ts) with its real files: the app starts with sign-in's texts
 * only, adds an area's when a screen of it is shown (holding the screen back until then), and a
 * language switch brings the new language's texts of every area shown so far before switching.
 */
import { createElement, Suspense } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { useTranslation } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AUDIT_TEXTS, CONVERSION_TEXTS, NOTIFICATION_TEXTS } from '@pa/shared/texts';
import { antdLocales, hasTexts, i18next, loadLocale, loadTexts, useTexts } from '../src/i18n';
import { readArea } from './texts';

const text = (area: 'common' | 'app' | 'console', locale: string, key: string) =>
  key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], readArea(area, locale)) as string;

async function html(node: ReturnType<typeof createElement>): Promise<string> {
  const { prelude } = await prerenderToNodeStream(node);
  let out = '';
  for await (const chunk of prelude) out += String(chunk);
  return out;
}

/** A console screen: held back until the console's texts are in. */
function ConsoleScreen() {
  useTexts('console');
  const { t } = useTranslation();
  return createElement('h1', null, t('console.nav.overview'));
}

describe('texts loaded by area', () => {
  beforeAll(() => {
    // loadLocale sets the page's language and title.
    vi.stubGlobal('document', { documentElement: { lang: '' }, title: '' });
    return () => vi.unstubAllGlobals();
  });

  it('starts with sign-in’s texts only (no antd-mobile pack either)', async () => {
    await loadLocale('fr');
    expect(i18next.language).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
    expect(i18next.t('auth.signIn')).toBe(text('common', 'fr', 'auth.signIn'));
    expect(hasTexts('fr', 'common')).toBe(true);
    expect(hasTexts('fr', 'app')).toBe(false);
    expect(i18next.exists('tabs.home')).toBe(false);
    expect(i18next.exists('console.nav.overview')).toBe(false);
    expect(antdLocales.has('fr')).toBe(false);
  });

  it('adds the promoter app’s texts, with antd-mobile’s pack for the language', async () => {
    await loadTexts('fr', 'app');
    expect(hasTexts('fr', 'app')).toBe(true);
    expect(i18next.t('tabs.home')).toBe(text('app', 'fr', 'tabs.home'));
    expect(i18next.t('auth.signIn')).toBe(text('common', 'fr', 'auth.signIn'));
    expect(antdLocales.get('fr')).toBe((await import('antd-mobile/es/locales/fr-FR')).default);
    // With them, the catalogue's inbox messages beside the inbox page's own texts, and the conversion terms.
    expect(i18next.t('notifications.withdrawal.paid.title', { net: '9,80 €' })).toBe(NOTIFICATION_TEXTS.fr.withdrawal.paid.title.replace('{{net}}', '9,80 €'));
    expect(i18next.t('notifications.title')).toBe(text('app', 'fr', 'notifications.title'));
    expect(i18next.t('conversions.kind.sale')).toBe(CONVERSION_TEXTS.fr.kind.sale);
    expect(i18next.exists('auditAdmin.actions.promoter.adjust')).toBe(false);
  });

  it('holds a screen back until its area’s texts are in, then shows them (never the key)', async () => {
    expect(hasTexts('fr', 'console')).toBe(false);
    const shown = await html(createElement(Suspense, { fallback: createElement('p', null, 'waiting') }, createElement(ConsoleScreen)));
    expect(shown).toContain(`<h1>${text('console', 'fr', 'console.nav.overview')}</h1>`);
    expect(shown).not.toContain('console.nav.overview');
    expect(hasTexts('fr', 'console')).toBe(true);
    // With them, the catalogue's audit names beside the audit page's own texts.
    expect(i18next.t('auditAdmin.actions.promoter.adjust')).toBe(AUDIT_TEXTS.fr.actions.promoter.adjust);
    expect(i18next.t('auditAdmin.entities.webhook')).toBe(AUDIT_TEXTS.fr.entities.webhook);
    expect(i18next.t('auditAdmin.title')).toBe(text('console', 'fr', 'auditAdmin.title'));
  });

  it('switches the language only once the new language’s texts of every area shown so far are in', async () => {
    const seen: [string, boolean, boolean, boolean][] = [];
    const listener = (lng: string) => seen.push([lng, hasTexts(lng, 'common'), hasTexts(lng, 'app'), hasTexts(lng, 'console')]);
    i18next.on('languageChanged', listener);
    await loadLocale('es');
    i18next.off('languageChanged', listener);
    expect(seen).toEqual([['es', true, true, true]]);
    expect(i18next.t('console.nav.overview')).toBe(text('console', 'es', 'console.nav.overview'));
    expect(i18next.t('tabs.home')).toBe(text('app', 'es', 'tabs.home'));
    expect(antdLocales.get('es')).toBe((await import('antd-mobile/es/locales/es-ES')).default);
    expect(document.title).toBe('Asistente de promoción');
    expect(hasTexts('en', 'app')).toBe(false);
  });
});
