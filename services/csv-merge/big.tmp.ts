import { createReadStream, readFileSync } from 'node:fs';
import { parse } from 'csv-parse';
let t = performance.now();
let s = 0;
const text = readFileSync('/tmp/big20.csv', 'utf8');
for (let i = 0; i < text.length; i++) s += text.charCodeAt(i) & 1;
console.log('scan', Math.round(performance.now() - t));
for (const opts of [{ relax_column_count: true, skip_empty_lines: true }, { relax_column_count: true }, { relax_column_count: true, info: true }]) {
  t = performance.now();
  let n = 0;
  for await (const _ of createReadStream('/tmp/big20.csv').pipe(parse(opts))) n++;
  console.log(JSON.stringify(opts), n, Math.round(performance.now() - t));
}
