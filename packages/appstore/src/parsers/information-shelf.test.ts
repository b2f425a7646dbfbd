import { describe, expect, it } from 'vitest';
import {
  ageRow,
  authorityAgeRow,
  compatibilityRow,
  constructedStorefrontPage,
  linkRow,
  purchasesRow,
  textRow,
  type TConstructedStorefrontPage,
} from '../../test/fixtures/constructed-2025-storefront.page';
import { mergeListing } from '../listing/listing.merge';
import { parseSizeText } from './information-shelf';
import { splitLanguageList } from './language-list.helpers';
import { parseProductPage } from './product-page.parser';
import type { TListingPart } from './parser.types';

/* All pages here are CONSTRUCTED (see test/fixtures/constructed-2025-storefront.page.ts). */

function read(o: TConstructedStorefrontPage, lookup: TListingPart | null = null) {
  const page = parseProductPage(constructedStorefrontPage(o), { appId: o.appId });
  return mergeListing({
    appId: o.appId,
    storefront: o.storefront,
    lookup,
    page,
    reviews: null,
    fetchedAt: '2026-01-01T00:00:00.000Z',
  });
}

const base = {
  appId: '6400000001',
  bundleId: 'com.example.constructed',
};

describe('language lists per locale', () => {
  it.each([
    ['English, German, Japanese', 'en-GB', ['English', 'German', 'Japanese']],
    ['English, French and German', 'en-US', ['English', 'French', 'German']],
    ['English, French, and German', 'en-US', ['English', 'French', 'German']],
    ['Inglês e Português', 'pt-BR', ['Inglês', 'Português']],
    ['Alemão, Inglês e Japonês', 'pt-BR', ['Alemão', 'Inglês', 'Japonês']],
    ['Allemand, Anglais et Français', 'fr-FR', ['Allemand', 'Anglais', 'Français']],
    ['Deutsch und Englisch', 'de-DE', ['Deutsch', 'Englisch']],
    ['日本語、英語、韓国語', 'ja', ['日本語', '英語', '韓国語']],
    ['简体中文和英语', 'zh-Hans-CN', ['简体中文', '英语']],
    ['中文，英文', 'zh-Hant-TW', ['中文', '英文']],
    ['Alemão, vietnamita\u00a0', 'pt-BR', ['Alemão', 'vietnamita']],
    ['한국어, 중국어(간체)', 'ko', ['한국어', '중국어(간체)']],
    ['Türkçe ve İngilizce', 'tr', ['Türkçe', 'İngilizce']],
    ['الإنجليزية والعربية', 'ar', ['الإنجليزية', 'العربية']],
    ['الإنجليزية، العربية، الفرنسية', 'ar', ['الإنجليزية', 'العربية', 'الفرنسية']],
    ['อังกฤษและไทย', 'th', ['อังกฤษ', 'ไทย']],
  ])('%j (%s)', (text, locale, expected) => {
    expect(splitLanguageList(text, locale)).toEqual(expected);
  });

  it('keeps a name whole when the conjunction is part of it', () => {
    expect(splitLanguageList('Panjabi', 'en')).toEqual(['Panjabi']);
    expect(splitLanguageList('', 'en')).toEqual([]);
  });
});

describe('the size row in decimal units, as Apple reports storage', () => {
  it.each([
    ['142.3 MB', 142_300_000],
    ['142,3 MB', 142_300_000],
    ['48,2 Mo', 48_200_000],
    ['1.1 GB', 1_100_000_000],
    ['1,1 ГБ', 1_100_000_000],
    ['980 KB', 980_000],
    ['1,024 MB', 1_024_000_000],
    ['1\u00a0024,5 Mo', 1_024_500_000],
    ['12.5MB', 12_500_000],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseSizeText(text)).toBe(bytes);
  });

  it.each(['Productivity', '4+', '142.3', 'MB', '12 Zz'])('%s is no size', (text) => {
    expect(parseSizeText(text)).toBeNull();
  });
});

describe('2025 Information rows read by structure (constructed pages)', () => {
  it('an app without a subtitle: the lockup shows the category, which is no subtitle', () => {
    const listing = read({
      ...base,
      lang: 'pt-BR',
      storefront: 'br',
      name: 'Relógio Exemplo',
      developer: 'Exemplo Software',
      subtitle: 'Utilitários',
      currency: 'BRL',
      rows: [
        textRow('Venda', 'Exemplo Software Ltda.'),
        textRow('Tamanho', '12,5 MB'),
        textRow('Categoria', 'Utilitários'),
        compatibilityRow('Compatibilidade', 'Requer o iOS 16.0 ou posterior.'),
        textRow('Idiomas', 'Inglês e Português ', { summary: 'Inglês e mais 1' }),
        authorityAgeRow(
          'Idade',
          'L',
          'Este app recebeu a seguinte classificação indicativa: L.',
          'br',
        ),
        textRow('Copyright', '© 2026 Exemplo Software Ltda.'),
      ],
    });
    expect(listing.subtitle).toBeNull();
    expect(listing.storeData?.fields.subtitle).toEqual({
      state: 'not_on_listing',
      source: 'page:2025',
      reason: null,
    });
    expect(listing.category).toBe('Utilitários');
    expect(listing.developer).toBe('Exemplo Software');
    expect(listing.languages).toEqual(['Inglês', 'Português']);
    expect(listing.ageRating).toBe('L');
  });

  it('the subtitle rule also works without a category row, from the lookup genre', () => {
    const o = {
      ...base,
      lang: 'en-US',
      storefront: 'us',
      name: 'Example Timer',
      developer: 'Example Inc.',
      subtitle: 'Utilities',
      currency: 'USD',
      rows: [textRow('Size', '3.1 MB'), ageRow('Age Rating', '4+', 'us')],
    };
    const pageOnly = read(o);
    expect(pageOnly.subtitle).toBe('Utilities');
    expect(pageOnly.fieldSources.category).toBeUndefined();
    const lookup: TListingPart = {
      source: 'lookup',
      values: { category: 'Utilities' },
      categoryNames: ['Utilities', 'Productivity'],
    };
    const withLookup = read(o, lookup);
    expect(withLookup.subtitle).toBeNull();
    expect(withLookup.category).toBe('Utilities');
    expect(withLookup.fieldSources.category).toBe('lookup');
    // The JSON-LD category works the same way, inside the page parser.
    expect(read({ ...o, jsonLdCategory: 'Utilities' }).subtitle).toBeNull();
    // A real subtitle is kept.
    expect(read({ ...o, subtitle: 'Focus timer' }, lookup).subtitle).toBe('Focus timer');
  });

  it('does not depend on row titles: rows in an unknown language, only in items_V3', () => {
    const listing = read({
      ...base,
      lang: 'xx',
      storefront: 'us',
      name: 'Example',
      developer: 'Example Dev',
      subtitle: 'Plan your day',
      currency: 'USD',
      rows: [
        textRow('R1', 'Example Dev', { v3Only: true }),
        textRow('R2', '48.2 MB', { v3Only: true }),
        textRow('R3', 'Lifestyle', { v3Only: true }),
        compatibilityRow('R4', 'Requires iOS 17.0 or later.'),
        textRow('R5', 'This app may use your location even when it isn’t open.', { v3Only: true }),
        textRow('R6', 'English, French, German', { summary: 'English and 2 more', v3Only: true }),
        ageRow('R7', '12+', 'us', true),
        purchasesRow('R8', [['Pro', '$4.99']]),
        textRow('R9', '© Example Dev', { v3Only: true }),
      ],
    });
    expect(listing.category).toBe('Lifestyle');
    expect(listing.languages).toEqual(['English', 'French', 'German']);
    expect(listing.ageRating).toBe('12+');
    expect(listing.subtitle).toBe('Plan your day');
  });

  it('a single language without summary, a seller name unlike the developer, no compatibility row', () => {
    const listing = read({
      ...base,
      lang: 'de-DE',
      storefront: 'de',
      name: 'Beispiel',
      developer: 'Beispiel',
      subtitle: 'Notizen schnell erfassen',
      currency: 'EUR',
      paid: { price: 3.99, formatted: '3,99 €' },
      rows: [
        textRow('Anbieter', 'Beispiel GmbH'),
        textRow('Größe', '22,1 MB'),
        textRow('Kategorie', 'Produktivität'),
        textRow('Sprachen', 'Deutsch'),
        ageRow('Alter', '4+', 'de'),
      ],
    });
    expect(listing.category).toBe('Produktivität');
    expect(listing.languages).toEqual(['Deutsch']);
    expect(listing.ageRating).toBe('4+');
    expect(listing.price).toEqual({ amount: 3.99, currency: 'EUR', formatted: '3,99 €' });
    expect(listing.fieldSources.price).toBe('page:2025');
  });

  it('does not take a link row for the category, and reads a price shown only on the buy button', () => {
    const listing = read({
      ...base,
      lang: 'fr-FR',
      storefront: 'fr',
      name: 'Exemple',
      developer: 'Exemple SAS',
      subtitle: 'Vos notes, partout',
      currency: 'EUR',
      paid: { price: 2.99, formatted: '2,99 €', inButton: true },
      rows: [
        // Titles no table knows: only the shapes decide.
        textRow('T1', 'Productivité'),
        textRow('T2', 'Anglais et Français', { summary: 'Anglais et 1 autre' }),
        linkRow('T3', 'Site web du développeur', 'https://example.com/app'),
      ],
    });
    expect(listing.category).toBe('Productivité');
    expect(listing.languages).toEqual(['Anglais', 'Français']);
    expect(listing.price).toEqual({ amount: 2.99, currency: 'EUR', formatted: '2,99 €' });
  });

  it('leaves a field unknown when no row has its shape, and says why', () => {
    const listing = read({
      ...base,
      lang: 'en-GB',
      storefront: 'gb',
      name: 'Example',
      developer: 'Example Ltd',
      subtitle: 'Daily planner',
      currency: 'GBP',
      rows: [textRow('Size', '5 MB')],
    });
    expect(listing.unknownFields).toEqual(
      expect.arrayContaining(['category', 'languages', 'ageRating']),
    );
    expect(listing.storeData?.fields.category).toEqual({
      state: 'unreadable',
      source: null,
      reason: 'not found on the 2025 page',
    });
    expect(listing.category).toBe('');
  });
});
