import { describe, expect, it } from 'vitest';
import {
  dismissToasts,
  toast,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  toastReducer,
  getToasts,
  type TToasterToast,
} from './use-toast';

const t = (id: string): TToasterToast => ({ id, title: id, open: true });

describe('toastReducer (docs/product.md#toasts)', () => {
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
  it('removes dismissed toasts only after 1,000,000 ms (docs/product.md#limits-and-constants)', () => {
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
  });
});

describe('toasts about an action (docs/product.md#toasts)', () => {
  it('closes only the toasts of a topic', () => {
    const state = toastReducer(
      { toasts: [{ ...t('a'), topic: 'sign-in' }, { ...t('b'), topic: 'pdf' }, t('c')] },
      { type: 'DISMISS_TOPIC', topic: 'sign-in' },
    );
    expect(state.toasts.map((x) => [x.id, x.open])).toEqual([
      ['a', false],
      ['b', true],
      ['c', true],
    ]);
  });
  it('an error closes once the action it describes succeeds, and nothing else does', () => {
    toast({ title: 'Login Failed', variant: 'destructive', topic: 'sign-in' });
    dismissToasts('analysis');
    expect(getToasts().map((x) => [x.title, x.open])).toEqual([['Login Failed', true]]);
    dismissToasts('sign-in');
    expect(getToasts().map((x) => [x.title, x.open])).toEqual([['Login Failed', false]]);
  });
});
