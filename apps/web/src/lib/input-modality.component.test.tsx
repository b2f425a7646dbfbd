import { afterEach, describe, expect, it } from 'vitest';
import { trackInputModality } from './input-modality';

describe('trackInputModality', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    delete document.documentElement.dataset.input;
  });

  it('marks the last input: keyboard navigation or a pointer', () => {
    stop = trackInputModality(document);
    expect(document.documentElement.dataset.input).toBeUndefined();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    expect(document.documentElement.dataset.input).toBe('keyboard');
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(document.documentElement.dataset.input).toBe('pointer');
    // A shortcut or a modifier alone is no keyboard navigation.
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'c', ctrlKey: true }));
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift' }));
    expect(document.documentElement.dataset.input).toBe('pointer');
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(document.documentElement.dataset.input).toBe('keyboard');
  });

  it('stops when asked', () => {
    trackInputModality(document)();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    expect(document.documentElement.dataset.input).toBeUndefined();
  });
});
