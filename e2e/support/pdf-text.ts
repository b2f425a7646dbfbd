/**
 * Text of a PDF, read with Mozilla's pdf.js (pdfjs-dist): every page's text items joined, so a
 * test can check that a report carries the texts of the page it was printed from.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Whitespace runs as one space, trimmed (PDF text and page text break lines differently). */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The text of every page of `pdf`, in page order, and the page count. */
export async function pdfText(pdf: Uint8Array): Promise<{ text: string; pages: number }> {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: true }).promise;
  try {
    const parts: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if ('str' in item) parts.push(item.str, item.hasEOL ? '\n' : '');
      }
      parts.push('\n');
    }
    return { text: parts.join(''), pages: doc.numPages };
  } finally {
    await doc.destroy();
  }
}
