import { describe, expect, it } from 'vitest';
import { nextPageFromLink } from './page';

describe('nextPageFromLink', () => {
  it('reads the next page of the header the gateway sends', () => {
    expect(nextPageFromLink('</api/shares?limit=2&cursor=abc>; rel="next"')).toBe(
      '/api/shares?limit=2&cursor=abc',
    );
  });

  it('finds rel=next among other links, unquoted or among other relations', () => {
    expect(nextPageFromLink('</a?cursor=1>; rel="prev", </a?cursor=3>; title="x"; rel=next')).toBe(
      '/a?cursor=3',
    );
    expect(nextPageFromLink('</b?cursor=9>; rel="last next"')).toBe('/b?cursor=9');
  });

  it('answers null on the last page', () => {
    expect(nextPageFromLink(null)).toBeNull();
    expect(nextPageFromLink('')).toBeNull();
    expect(nextPageFromLink('</a?cursor=1>; rel="prev"')).toBeNull();
    expect(nextPageFromLink('</a?cursor=1>; rel="nextpage"')).toBeNull();
  });
});
