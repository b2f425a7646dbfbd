import { describe, expect, it } from 'vitest';
import {
  APP_STORE_HOST,
  buildAppStoreUrl,
  parseAppStoreUrl,
  URL_ERROR_INVALID,
  URL_ERROR_NO_APP_ID,
} from './app-store-url.validation';
import {
  findDuplicateCompetitors,
  selectCompetitors,
  URL_ERROR_DUPLICATE,
  validateCompetitorUrls,
} from './competitor-urls.validation';

const SPOTIFY = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';
const SPOTIFY_NORMALIZED =
  'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580?platform=iphone';

describe('parseAppStoreUrl: accepted inputs', () => {
  const cases: Array<
    [label: string, input: string, appId: string, cc: string, normalized: string]
  > = [
    ['canonical product page', SPOTIFY, '324684580', 'us', SPOTIFY_NORMALIZED],
    [
      'surrounding whitespace and newline',
      `  \n${SPOTIFY}\t `,
      '324684580',
      'us',
      SPOTIFY_NORMALIZED,
    ],
    [
      'upper-case ID prefix',
      'https://apps.apple.com/us/app/spotify-music-and-podcasts/ID324684580',
      '324684580',
      'us',
      SPOTIFY_NORMALIZED,
    ],
    [
      'extra query parameters are dropped, platform forced',
      'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580?uo=4&platform=ipad&mt=8',
      '324684580',
      'us',
      SPOTIFY_NORMALIZED,
    ],
    [
      'fragment is dropped',
      'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580#reviews',
      '324684580',
      'us',
      SPOTIFY_NORMALIZED,
    ],
    [
      '/app/id<digits> without slug',
      'https://apps.apple.com/gb/app/id389801252',
      '389801252',
      'gb',
      'https://apps.apple.com/gb/app/id389801252?platform=iphone',
    ],
    [
      'no storefront segment defaults to us',
      'https://apps.apple.com/app/instagram/id389801252',
      '389801252',
      'us',
      'https://apps.apple.com/us/app/instagram/id389801252?platform=iphone',
    ],
    [
      'upper-case storefront and host',
      'HTTPS://APPS.APPLE.COM/DE/app/instagram/id389801252',
      '389801252',
      'de',
      'https://apps.apple.com/de/app/instagram/id389801252?platform=iphone',
    ],
    [
      'legacy itunes.apple.com link',
      'https://itunes.apple.com/us/app/rivian/id1570215232?mt=8',
      '1570215232',
      'us',
      'https://apps.apple.com/us/app/rivian/id1570215232?platform=iphone',
    ],
    [
      'http scheme is upgraded',
      'http://apps.apple.com/fr/app/tiktok/id835599320',
      '835599320',
      'fr',
      'https://apps.apple.com/fr/app/tiktok/id835599320?platform=iphone',
    ],
    [
      'trailing slash',
      'https://apps.apple.com/us/app/rivian/id1570215232/',
      '1570215232',
      'us',
      'https://apps.apple.com/us/app/rivian/id1570215232?platform=iphone',
    ],
    [
      'no scheme: the host first, as people type or paste it',
      'apps.apple.com/us/app/spotify-music-and-podcasts/id324684580',
      '324684580',
      'us',
      SPOTIFY_NORMALIZED,
    ],
    [
      'no scheme, upper-case host, legacy host',
      'ITUNES.apple.com/gb/app/id389801252?mt=8',
      '389801252',
      'gb',
      'https://apps.apple.com/gb/app/id389801252?platform=iphone',
    ],
    [
      'scheme-relative link',
      '//apps.apple.com/fr/app/tiktok/id835599320',
      '835599320',
      'fr',
      'https://apps.apple.com/fr/app/tiktok/id835599320?platform=iphone',
    ],
    [
      'explicit default port is normalised away by URL parsing',
      'https://apps.apple.com:443/us/app/rivian/id1570215232',
      '1570215232',
      'us',
      'https://apps.apple.com/us/app/rivian/id1570215232?platform=iphone',
    ],
  ];

  it.each(cases)('%s', (_label, input, appId, cc, normalized) => {
    expect(parseAppStoreUrl(input)).toEqual({
      status: 'valid',
      appId,
      storefront: cc,
      normalizedUrl: normalized,
    });
  });
});

describe('parseAppStoreUrl: empty input is idle', () => {
  it.each([[''], ['   '], ['\n\t']])('%j', (input) => {
    expect(parseAppStoreUrl(input)).toEqual({ status: 'idle', storefront: 'us' });
  });
  it('null and undefined', () => {
    expect(parseAppStoreUrl(null).status).toBe('idle');
    expect(parseAppStoreUrl(undefined).status).toBe('idle');
  });
});

describe('parseAppStoreUrl: rejected inputs', () => {
  const cases: Array<[label: string, input: string, error: string]> = [
    ['not a URL', 'spotify', URL_ERROR_INVALID],
    ['look-alike host suffix', 'https://apps.apple.com.evil.com/us/app/x/id123', URL_ERROR_INVALID],
    ['look-alike host prefix', 'https://evilapps.apple.com/us/app/x/id123', URL_ERROR_INVALID],
    ['other apple host', 'https://www.apple.com/us/app/x/id123', URL_ERROR_INVALID],
    [
      'user info before the real host',
      'https://apps.apple.com@evil.com/us/app/x/id123',
      URL_ERROR_INVALID,
    ],
    ['user info on the real host', 'https://user@apps.apple.com/us/app/x/id123', URL_ERROR_INVALID],
    ['user and password', 'https://user:pw@apps.apple.com/us/app/x/id123', URL_ERROR_INVALID],
    ['host only in the path', 'https://evil.com/apps.apple.com/us/app/x/id123', URL_ERROR_INVALID],
    ['no scheme, look-alike host', 'apps.apple.com.evil.com/us/app/x/id123', URL_ERROR_INVALID],
    ['no scheme, user info', 'apps.apple.com@evil.com/us/app/x/id123', URL_ERROR_INVALID],
    ['no scheme, another host', 'www.apps.apple.com/us/app/x/id123', URL_ERROR_INVALID],
    ['no scheme, no app id', 'apps.apple.com/us/app/spotify', URL_ERROR_NO_APP_ID],
    [
      'host only in the query',
      'https://evil.com/?u=https://apps.apple.com/app/id123',
      URL_ERROR_INVALID,
    ],
    ['ftp scheme', 'ftp://apps.apple.com/us/app/x/id123', URL_ERROR_INVALID],
    ['javascript scheme', 'javascript:alert("apps.apple.com/id123")', URL_ERROR_INVALID],
    ['itms-apps scheme', 'itms-apps://apps.apple.com/us/app/x/id123', URL_ERROR_INVALID],
    ['data scheme', 'data:text/html,apps.apple.com/id123', URL_ERROR_INVALID],
    ['non-default port', 'https://apps.apple.com:8443/us/app/x/id123', URL_ERROR_INVALID],
    ['trailing-dot host', 'https://apps.apple.com./us/app/x/id123', URL_ERROR_INVALID],
    ['IP address', 'https://17.253.144.10/us/app/x/id123', URL_ERROR_INVALID],
    ['no id segment', 'https://apps.apple.com/us/app/spotify', URL_ERROR_NO_APP_ID],
    ['id without digits', 'https://apps.apple.com/us/app/spotify/id', URL_ERROR_NO_APP_ID],
    [
      'id with letters after digits',
      'https://apps.apple.com/us/app/x/id123abc',
      URL_ERROR_NO_APP_ID,
    ],
    ['id only in the query', 'https://apps.apple.com/us/app/x?id=123', URL_ERROR_NO_APP_ID],
    ['store root', 'https://apps.apple.com/', URL_ERROR_NO_APP_ID],
  ];

  it.each(cases)('%s', (_label, input, error) => {
    const result = parseAppStoreUrl(input);
    expect(result).toEqual({ status: 'invalid', error, storefront: 'us' });
  });
});

describe('buildAppStoreUrl', () => {
  it('builds the normalised URL', () => {
    expect(buildAppStoreUrl('123', 'gb')).toBe(
      'https://apps.apple.com/gb/app/id123?platform=iphone',
    );
    expect(buildAppStoreUrl('123', 'us', 'my-app')).toBe(
      'https://apps.apple.com/us/app/my-app/id123?platform=iphone',
    );
  });
  it('rejects bad arguments by name', () => {
    expect(() => buildAppStoreUrl('12a')).toThrow(/appId must be digits/);
    expect(() => buildAppStoreUrl('12', 'usa')).toThrow(/storefront must be two letters/);
  });
  it('exports the App Store host of docs/product.md#validation-rules', () => {
    expect(APP_STORE_HOST).toBe('apps.apple.com');
  });
});

describe('competitor rules', () => {
  const MAIN = SPOTIFY;
  const INSTAGRAM = 'https://apps.apple.com/us/app/instagram/id389801252';
  const TIKTOK = 'https://apps.apple.com/us/app/tiktok/id835599320';
  const RIVIAN = 'https://apps.apple.com/us/app/rivian/id1570215232';

  const duplicateCases: Array<[label: string, competitors: string[], duplicates: number[]]> = [
    ['all distinct', [INSTAGRAM, TIKTOK, RIVIAN], []],
    ['same as the main app', [INSTAGRAM, SPOTIFY, TIKTOK], [1]],
    [
      'main app written differently (upper-case ID, other storefront, legacy host)',
      ['https://itunes.apple.com/gb/app/x/ID324684580', '', TIKTOK],
      [0],
    ],
    [
      'repeated among competitors: later ones flagged',
      [INSTAGRAM, TIKTOK, `${INSTAGRAM}?x=1`],
      [2],
    ],
    ['empty and invalid fields are never duplicates', ['', 'nope', ''], []],
    ['three copies of one app', [TIKTOK, TIKTOK.replace('id', 'ID'), TIKTOK], [1, 2]],
  ];

  it.each(duplicateCases)('findDuplicateCompetitors: %s', (_label, competitors, duplicates) => {
    expect(findDuplicateCompetitors(MAIN, competitors)).toEqual(duplicates);
  });

  it('an invalid main URL does not make competitors duplicates', () => {
    expect(findDuplicateCompetitors('not a url', [INSTAGRAM, INSTAGRAM])).toEqual([1]);
  });

  it('validateCompetitorUrls marks duplicates with the documented message', () => {
    const states = validateCompetitorUrls(MAIN, [INSTAGRAM, SPOTIFY, 'https://example.com/id1']);
    expect(states[0]).toMatchObject({ status: 'valid', appId: '389801252' });
    expect(states[1]).toEqual({ status: 'invalid', error: URL_ERROR_DUPLICATE, storefront: 'us' });
    expect(states[2]).toEqual({ status: 'invalid', error: URL_ERROR_INVALID, storefront: 'us' });
    expect(URL_ERROR_DUPLICATE).toBe('This URL already exists');
  });

  it('selectCompetitors keeps valid, non-empty, unique competitors in order, at most 3', () => {
    const picked = selectCompetitors(MAIN, [
      '',
      INSTAGRAM,
      SPOTIFY,
      'https://apps.apple.com/us/app/x',
      TIKTOK,
      INSTAGRAM,
      RIVIAN,
      'https://apps.apple.com/us/app/to-do/id1585508533',
    ]);
    expect(picked.map((p) => p.appId)).toEqual(['389801252', '835599320', '1570215232']);
    expect(picked[0]!.normalizedUrl).toBe(
      'https://apps.apple.com/us/app/instagram/id389801252?platform=iphone',
    );
  });
});

describe('parseAppStoreUrl: storefronts and the ?l= language', () => {
  it.each(['uk', 'xx', 'eu'])(
    'rejects "%s", which is not an App Store storefront, naming it',
    (cc) => {
      const parsed = parseAppStoreUrl(`https://apps.apple.com/${cc}/app/id324684580`);
      expect(parsed.status).toBe('invalid');
      expect(parsed.error).toBe(
        `"${cc}" is not an App Store storefront (use a two-letter country code of the App Store, such as us, gb or jp)`,
      );
    },
  );

  it.each(['jp', 'kr', 'br', 'cn', 'tw', 'xk'])('accepts the %s storefront', (cc) => {
    const parsed = parseAppStoreUrl(`https://apps.apple.com/${cc.toUpperCase()}/app/x/id1`);
    expect(parsed).toMatchObject({ status: 'valid', storefront: cc, appId: '1' });
  });

  it('keeps a ?l= language and drops one that is not a language tag', () => {
    expect(parseAppStoreUrl('https://apps.apple.com/ca/app/x/id1?l=fr-CA&uo=4')).toMatchObject({
      status: 'valid',
      storefront: 'ca',
      language: 'fr-CA',
      normalizedUrl: 'https://apps.apple.com/ca/app/x/id1?platform=iphone&l=fr-CA',
    });
    const bad = parseAppStoreUrl('https://apps.apple.com/ca/app/x/id1?l=<script>');
    expect(bad.language).toBeUndefined();
    expect(bad.normalizedUrl).toBe('https://apps.apple.com/ca/app/x/id1?platform=iphone');
    expect(buildAppStoreUrl('1', 'ch', undefined, 'zh-Hant-TW')).toBe(
      'https://apps.apple.com/ch/app/id1?platform=iphone&l=zh-Hant-TW',
    );
  });
});
