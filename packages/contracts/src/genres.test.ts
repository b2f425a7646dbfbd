import { describe, expect, it } from 'vitest';
import { APP_STORE_GENRES, categoryLabel } from './genres';

describe('categoryLabel', () => {
  it("names a storefront's category in English beside it when the genre id is known", () => {
    expect(categoryLabel('생산성', '6007')).toBe('생산성 (Productivity)');
    expect(categoryLabel('效率', '6007')).toBe('效率 (Productivity)');
    expect(categoryLabel('Fotografie & Video', '6008')).toBe('Fotografie & Video (Photo & Video)');
  });
  it('leaves an English name alone, however it is written', () => {
    expect(categoryLabel('Productivity', '6007')).toBe('Productivity');
    expect(categoryLabel('Photo and Video', '6008')).toBe('Photo and Video');
    expect(categoryLabel('HEALTH & FITNESS', '6013')).toBe('HEALTH & FITNESS');
  });
  it('without a known genre id, the storefront name as it is', () => {
    expect(categoryLabel('생산성', null)).toBe('생산성');
    expect(categoryLabel('생산성', '9999')).toBe('생산성');
    expect(categoryLabel(null, '6007')).toBeNull();
  });
  it("knows the recorded apps' genres", () => {
    // Spotify 6011, Rivian 6003, TikTok 6016, To Do List Widget 6007 (lookup primaryGenreId).
    expect(['6011', '6003', '6016', '6007'].map((id) => APP_STORE_GENRES[id])).toEqual([
      'Music',
      'Travel',
      'Entertainment',
      'Productivity',
    ]);
  });
});
