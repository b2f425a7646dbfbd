import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvExportError } from './csv-export.error';
import { countLineEnds, openExportText, sniffDelimiter } from './text-decoder.stream';

async function readAll(bytes: Buffer | Buffer[]) {
  const opened = await openExportText(
    Readable.from(Array.isArray(bytes) ? bytes : [bytes]),
    'conversionCSV',
  );
  let text = '';
  for await (const chunk of opened.chunks) text += chunk;
  return { ...opened, text };
}

const CSV = 'Name,Café Ünïcode\nDate,A,B\n7/20/25,1,2\n';

describe('openExportText (docs/product.md#merging-exports)', () => {
  it('reads UTF-8 without BOM', async () => {
    const r = await readAll(Buffer.from(CSV, 'utf8'));
    expect([r.encoding, r.bom, r.delimiter, r.text]).toEqual(['utf-8', false, ',', CSV]);
  });

  it('strips a UTF-8 BOM', async () => {
    const r = await readAll(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(CSV)]));
    expect([r.encoding, r.bom, r.text]).toEqual(['utf-8', true, CSV]);
  });

  it('strips two UTF-8 BOMs, and two UTF-16LE ones (constructed files)', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const r = await readAll(Buffer.concat([bom, bom, Buffer.from(CSV)]));
    expect([r.encoding, r.bom, r.text]).toEqual(['utf-8', true, CSV]);
    const wide = Buffer.concat([
      Buffer.from([0xff, 0xfe, 0xff, 0xfe]),
      Buffer.from(CSV, 'utf16le'),
    ]);
    const w = await readAll(wide);
    expect([w.encoding, w.bom, w.text]).toEqual(['utf-16le', true, CSV]);
  });

  it('reads UTF-16LE with BOM, even when a character is split across chunks', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CSV, 'utf16le')]);
    const r = await readAll([bytes.subarray(0, 7), bytes.subarray(7)]);
    expect([r.encoding, r.bom, r.text]).toEqual(['utf-16le', true, CSV]);
  });

  it('reads UTF-16BE with BOM and UTF-16LE without one', async () => {
    const le = Buffer.from(CSV, 'utf16le');
    const be = Buffer.from(le).swap16();
    expect((await readAll(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).text).toBe(CSV);
    const bomless = await readAll(le);
    expect([bomless.encoding, bomless.text]).toEqual(['utf-16le', CSV]);
  });

  it('falls back to Windows-1252 for bytes that are not UTF-8', async () => {
    const r = await readAll(Buffer.from('Name,Caf\xe9\nDate,A,B\n', 'latin1'));
    expect([r.encoding, r.text]).toEqual(['windows-1252', 'Name,Café\nDate,A,B\n']);
  });

  it('decodes a UTF-8 character split between the sample and the rest', async () => {
    const big = 'x'.repeat(64 * 1024 - 1) + '\nDate,A,B\n1/1/25,é,2\n';
    const bytes = Buffer.from(big, 'utf8');
    const r = await readAll([bytes.subarray(0, 64 * 1024 + 20), bytes.subarray(64 * 1024 + 20)]);
    expect(r.text).toBe(big);
  });

  it('rejects empty and binary input with the field in the message', async () => {
    await expect(readAll(Buffer.alloc(0))).rejects.toThrow(
      new CsvExportError(
        'conversionCSV',
        'empty',
        'the file is empty; expected a CSV export with a Date column',
      ),
    );
    const zip = Buffer.from([
      0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00,
    ]);
    await expect(readAll(zip)).rejects.toThrow(/^conversionCSV: the file is binary/);
    const controls = Buffer.from(
      Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? 0x01 : 0x41)),
    );
    await expect(readAll(controls)).rejects.toThrow(/binary/);
  });
});

describe('sniffDelimiter', () => {
  it('finds the header row delimiter', () => {
    expect(sniffDelimiter('App\nDate\tA\tB\n')).toBe('\t');
    expect(sniffDelimiter('"Name";"X"\n"Date";"A";"B"\n1/1/25;"1,5";2\n')).toBe(';');
    expect(sniffDelimiter('"Date Range","a","b"\n"Date","A","B"\n')).toBe(',');
    expect(sniffDelimiter('no header here')).toBe(',');
  });

  it('counts CRLF, LF and lone CR line ends once each', () => {
    expect(countLineEnds('')).toBe(0);
    expect(countLineEnds('a,b')).toBe(0);
    expect(countLineEnds('a\r\nb\nc\rd')).toBe(3);
    expect(countLineEnds('\r\n\r\n')).toBe(2);
    expect(countLineEnds('\r\r\n\n\r')).toBe(4);
    expect(countLineEnds('x\n'.repeat(1000))).toBe(1000);
  });
});
