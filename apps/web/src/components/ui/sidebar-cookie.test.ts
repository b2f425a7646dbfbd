import { describe, expect, it } from 'vitest';
import { SIDEBAR_COOKIE_MAX_AGE, SIDEBAR_COOKIE_NAME, readSidebarCookie } from './sidebar-cookie';

describe('sidebar cookie (docs/product.md#limits-and-constants)', () => {
  it('is sidebar_state, kept 7 days', () => {
    expect(SIDEBAR_COOKIE_NAME).toBe('sidebar_state');
    expect(SIDEBAR_COOKIE_MAX_AGE).toBe(7 * 24 * 60 * 60);
  });
  it('reads the remembered state among other cookies', () => {
    expect(readSidebarCookie('a=1; sidebar_state=false; b=2')).toBe(false);
    expect(readSidebarCookie('sidebar_state=true')).toBe(true);
    expect(readSidebarCookie('other_sidebar_state=false')).toBeUndefined();
    expect(readSidebarCookie('')).toBeUndefined();
  });
});
