/**
 * Word-level differences of two texts for the timeline's before / after columns: the texts are
 * split into words, spaces and punctuation by `Intl.Segmenter` (so Chinese or Japanese text is
 * split into words too) and the token lists compared with jsdiff's `diffArrays`, so each column
 * gives back its text exactly. Pure: no DOM.
 */
import { diffArrays } from 'diff';

/** A run of text in one column: `changed` when it is not in the other text. */
export interface TDiffSegment {
  text: string;
  changed: boolean;
}

/** The two columns of a text change: what was removed marked in `before`, what was added in `after`. */
export interface TTextDiff {
  before: TDiffSegment[];
  after: TDiffSegment[];
}

/**
 * Marks the words that differ between `before` and `after` (null counts as empty text).
 * Runs kept in both texts appear unmarked in both columns.
 *
 * @param language - the listing's language (BCP 47), for word boundaries; default English.
 */
export function diffTexts(before: string | null, after: string | null, language = 'en'): TTextDiff {
  const segmenter = new Intl.Segmenter(language, { granularity: 'word' });
  const tokens = (text: string | null) =>
    Array.from(segmenter.segment(text ?? ''), (s) => s.segment);
  const out: TTextDiff = { before: [], after: [] };
  for (const part of diffArrays(tokens(before), tokens(after))) {
    const text = part.value.join('');
    if (!part.added) out.before.push({ text, changed: part.removed });
    if (!part.removed) out.after.push({ text, changed: part.added });
  }
  return out;
}
