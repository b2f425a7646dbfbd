import { describe, expect, it } from 'vitest';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY, toastReducer, type ToasterToast } from './use-toast';

const t = (id: string): ToasterToast => ({ id, title: id, open: true });

describe('toastReducer (spec section 4 "Toasts")', () => {
  it('keeps one toast visible: a new one replaces the old', () => {
    expect(TOAST_LIMIT).toBe(1);
    const state = toastReducer(toastReducer({ toasts: [] }, { type: 'ADD_TOAST', toast: t('a') }), {
      type: 'ADD_TOAST',
      toast: t('b'),
    });
    expect(state.toasts.map((x) => x.id)).toEqual(['b']);
  });
  it('updates, dismisses (closes) and removes', () => {
    let state = toastReducer(
      { toasts: [t('a')] },
      { type: 'UPDATE_TOAST', toast: { id: 'a', title: 'changed' } },
    );
    expect(state.toasts[0]?.title).toBe('changed');
    state = toastReducer(state, { type: 'DISMISS_TOAST', toastId: 'a' });
    expect(state.toasts[0]?.open).toBe(false);
    state = toastReducer(state, { type: 'REMOVE_TOAST', toastId: 'a' });
    expect(state.toasts).toEqual([]);
  });
  it('removes dismissed toasts only after 1,000,000 ms (spec section 9)', () => {
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
  });
});
